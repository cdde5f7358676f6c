/** The forge's self-checks on generated decider code: the nine-class review and the scan for invented values. */
export { REVIEW_CLASSES, ReviewSchema, review, type Finding, type Review, type ReviewClass, type ReviewClassName } from './review.js';
export { SCAN_KINDS, ScanSchema, scan, type Invented, type Scan, type ScanKind, type ScanSource, type Trace, type Traced } from './scan.js';
