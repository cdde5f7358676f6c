import { account } from './plans/account.js';
import { modelRegister } from './agent/model-register.js';
import { modelRead, modelsMine } from './agent/my-models.js';
import { runStart } from './agent/run-start.js';
import { runStop } from './agent/run-stop.js';
import { runRead, runsList } from './agent/runs.js';
import { capsRead, capsSet } from './book/book-caps.js';
import { fillsList } from './book/fills.js';
import { orderCancel } from './book/order-cancel.js';
import { orderPlace } from './book/order-place.js';
import { ordersList } from './book/orders.js';
import { positionsList } from './book/positions.js';
import { followQuoteTool } from './book/follow-quote.js';
import { modelRecord } from './book/model-record.js';
import { models } from './book/models.js';
import { decisionPost } from './typed/decision-post.js';
import { typedSchema } from './typed/typed-decision-schema.js';
import { catalogue } from './plans/catalogue.js';
import { chat } from './chat/chat.js';
import type { Tool } from './define.js';
import type { ToolListing } from '../services/offer.js';
import { forecast } from './forecast/forecast.js';
import { forecastHealth } from './forecast/forecast-health.js';
import { authProviders } from './identity/auth-providers.js';
import { doorLink, doors, doorUnlink } from './identity/doors.js';
import { emailSend } from './identity/email-send.js';
import { emailVerify } from './identity/email-verify.js';
import { join } from './identity/join.js';
import { joinInfo } from './identity/join-info.js';
import { login } from './identity/login.js';
import { logout } from './identity/logout.js';
import { rotateKey } from './identity/rotate-key.js';
import { marksAdd } from './marks/mark-add.js';
import { marksList } from './marks/marks.js';
import { marksRemove } from './marks/mark-remove.js';
import { mandateAdd } from './plans/mandate-add.js';
import { grants } from './plans/grants.js';
import { meter } from './plans/meter.js';
import { meterRecord } from './plans/meter-record.js';
import { oauthConsent, oauthRequest } from './oauth/oauth-consent.js';
import { planClaim } from './plans/plan-claim.js';
import { holderLink } from './plans/holder-link.js';
import { holderState } from './plans/holder.js';
import { plans } from './plans/plans.js';
import { wallet } from './identity/wallet.js';
import { walletProve } from './identity/wallet-prove.js';
import { epochOpen } from './series/epoch-open.js';
import { seriesList } from './series/series-list.js';
import { seriesOpen } from './series/series-open.js';
import { seriesQuote } from './series/series-quote.js';
import { seriesRead } from './series/series-read.js';
import { seriesRevoke } from './series/series-revoke.js';
import { seriesTerms } from './series/series-terms.js';
import { price } from './plans/price.js';
import { ledgerVerify } from './plane/ledger-verify.js';
import { ledgers } from './plane/ledgers.js';
import { chartImage } from './plates/chart-image.js';
import { plateSeal } from './plates/plate-seal.js';
import { history } from './records/history.js';
import { historyEntry } from './records/history-entry.js';
import { lab } from './records/lab.js';
import { epochs } from './records/epochs.js';
import { ladder } from './records/ladder.js';
import { registry } from './records/registry.js';
import { roadmap } from './records/roadmap.js';
import { skillRead } from './skills/skill-read.js';
import { skills } from './skills/skills.js';
import { imageAttach } from './studio/image-attach.js';
import { forge } from './forge/forge.js';
import { forgeOnboard } from './forge/forge-onboard.js';
import { forgeRead } from './studio/forge-read.js';
import { grade } from './studio/grade.js';
import { forgeLanes } from './forge/forge-lanes.js';
import { rehearseTool } from './studio/rehearse.js';
import { score } from './studio/score.js';
import { scoreRead } from './studio/score-read.js';
import { studioAct } from './studio/studio-act.js';
import { studioState } from './studio/studio-state.js';
import { strategies } from './forge/strategies.js';
import { strategyQuote } from './forge/strategy-quote.js';
import { forgeTrial } from './forge/forge-trial.js';
import { workflowRead } from './studio/workflow-read.js';
import { tape } from './tape/tape.js';

/** Every capability of the deck, each written once. Adapters, cards and OpenAPI are read from this list. */
const TOOLS = [
  catalogue,
  plans,
  price,
  account,
  meter,
  meterRecord,
  grants,
  planClaim,
  holderState,
  holderLink,
  mandateAdd,
  marksList,
  marksAdd,
  marksRemove,
  tape,
  forecast,
  forecastHealth,
  imageAttach,
  workflowRead,
  forgeLanes,
  forge,
  forgeRead,
  forgeOnboard,
  forgeTrial,
  rehearseTool,
  grade,
  score,
  scoreRead,
  studioState,
  studioAct,
  strategies,
  strategyQuote,
  skills,
  skillRead,
  plateSeal,
  chartImage,
  // The quote's routes before /v1/series/:id, so "quote" is never read as an id.
  seriesTerms,
  seriesQuote,
  seriesOpen,
  seriesList,
  seriesRead,
  seriesRevoke,
  epochOpen,
  history,
  historyEntry,
  registry,
  ladder,
  lab,
  epochs,
  roadmap,
  ledgers,
  ledgerVerify,
  chat,
  joinInfo,
  join,
  login,
  logout,
  authProviders,
  rotateKey,
  emailSend,
  emailVerify,
  doors,
  doorLink,
  doorUnlink,
  wallet,
  walletProve,
  oauthRequest,
  oauthConsent,
  // The book, the agent rail, the typed-decision lane and the copy seller's tools.
  orderPlace,
  orderCancel,
  ordersList,
  fillsList,
  positionsList,
  capsRead,
  capsSet,
  modelRegister,
  modelsMine,
  modelRead,
  runStart,
  runsList,
  runRead,
  runStop,
  typedSchema,
  decisionPost,
  models,
  modelRecord,
  followQuoteTool,
] as const satisfies readonly Tool[];

export const REGISTRY: readonly Tool[] = TOOLS;

/** A tool's name, as the registry holds it: a name written elsewhere (a seller's list) is checked against these. */
export type ToolName = (typeof TOOLS)[number]['name'];

export const toolByName: ReadonlyMap<string, Tool> = new Map(REGISTRY.map((t) => [t.name, t]));

/** The tools agents reach over MCP (a person's acts such as join and login stay on REST). */
export const MCP_TOOLS: readonly Tool[] = REGISTRY.filter((t) => t.surface === 'both');

/** Every tool as the roadmap lists it, made once from the registry. */
export const TOOL_LISTING: readonly ToolListing[] = REGISTRY.map((t) => ({
  area: t.rest ? t.toolset.id : 'mcp',
  name: t.name,
  title: t.title,
  route: t.rest ? `${t.rest.method} ${t.rest.path}` : null,
  mcp: t.surface === 'both',
}));
