import { TYPED_DECISION_VERSION } from '../../engine/book/index.js';

export const TYPED_DECISION_PATH = `/typed/${TYPED_DECISION_VERSION}.json`;
