import { randomBytes } from 'node:crypto';
import { Accounts, type AccountsDoc } from './accounts.js';
import type { Backend } from './backend.js';
import { BookStore, type FillRecord, type OrderEvent } from './book.js';
import { BookCaps, type BookCapsDoc } from './book-caps.js';
import { Doors, type DoorsDoc } from './doors.js';
import { Forecasts } from './forecasts.js';
import { Forges, type ForgesDoc } from './forges.js';
import { Grades } from './grades.js';
import { HolderLinks } from './holder-links.js';
import { ImageFiles } from './images.js';
import { Mandates } from './mandates.js';
import { OAuthBook, type OAuthDoc } from './oauth.js';
import { Models, type ModelsDoc } from './models.js';
import { Owned, type OwnedDoc } from './owned.js';
import { PlanClaims } from './plan-claims.js';
import { PlateFiles } from './plates.js';
import { Runs, type RunRecord, type RunsDoc } from './runs.js';
import { Seals } from './seals.js';
import { SeriesBook } from './series.js';
import { Sessions, type SessionsDoc } from './sessions.js';
import { SpendBook, type Spend } from './spend.js';
import { Studio, type StudioDoc } from './studio.js';
import { TapeArchive } from './tape-archive.js';
import { Trials, type TrialsDoc } from './trials.js';

/** An image a principal attached: the bytes are in ImageFiles under the same id. */
export interface Attachment {
  id: string;
  mime: string;
  bytes: number;
  sha256: string;
  day: string;
  created_at: number;
}

/** One plate a principal sealed (the plate itself names no one; this record is what the daily count reads). */
export interface PlateSeal {
  id: string;
  day: string;
}

export interface Mark {
  id: string;
  market: string;
  kind: 'level' | 'zone';
  price: number;
  price2?: number;
  note?: string;
  created_at: number;
}

/**
 * Everything the deck keeps: one document or ledger per collection, in its backend (JSON files under DECK_DATA, or
 * PostgreSQL), and the tape archive, seals, plates and images.
 */
export interface Store {
  backend: Backend;
  /** A random salt made on first start and kept with the data: client addresses are only kept salted. */
  salt: string;
  accounts: Accounts;
  sessions: Sessions;
  /** The email and X doors: links to principals, sign-ins waiting and proofs (secrets only as digests). */
  doors: Doors;
  marks: Owned<Mark>;
  attachments: Owned<Attachment>;
  images: ImageFiles;
  plates: PlateFiles;
  plateSeals: Owned<PlateSeal>;
  spend: SpendBook;
  /** Every bar once seen, per market, timeframe and day. */
  archive: TapeArchive;
  /** The bytes first served for past windows. */
  seals: Seals;
  /** Every forecast envelope issued and every score measured, per market and timeframe. */
  forecasts: Forecasts;
  /** Every principal's forges, kept two hours, and the casts counted per UTC day. */
  forges: Forges;
  /** Every principal's studio records, one per strategy, each in its state of the studio machine. */
  studio: Studio;
  /** The rehearsals grading reads, the grader trial pings, the grade receipts and the scores. */
  grades: Grades;
  /** Every principal's rules forged or rehearsed, by market and timeframe: the trials a rehearsal's verdict deflates for. */
  trials: Trials;
  /** Plans paid on chain, holder links and house mandates: hash-chained ledgers. */
  claims: PlanClaims;
  holders: HolderLinks;
  mandates: Mandates;
  /** Every principal's series of epoch jobs, the series ledger of their moves and the handshakes kept for recovery. */
  series: SeriesBook;
  /** The OAuth door's registered clients and the grants people consented to (refresh tokens as digests). */
  oauth: OAuthBook;
  /** The deck's own book: orders and fills (hash-chained), each principal's caps. */
  book: BookStore;
  bookCaps: BookCaps;
  /** The models operators registered with a decide() endpoint, and their agent runs. */
  models: Models;
  runs: Runs;
}

export async function openStore(backend: Backend): Promise<Store> {
  const secret = await backend.doc<{ salt: string }>('secret', () => ({ salt: '' }));
  if (!secret.data.salt) await secret.update((d) => void (d.salt ||= randomBytes(32).toString('hex')));
  return {
    backend,
    salt: secret.data.salt,
    accounts: new Accounts(await backend.doc<AccountsDoc>('accounts', Accounts.empty)),
    sessions: new Sessions(await backend.doc<SessionsDoc>('sessions', Sessions.empty)),
    doors: new Doors(await backend.doc<DoorsDoc>('doors', Doors.empty)),
    marks: new Owned<Mark>(await backend.doc<OwnedDoc<Mark>>('marks', Owned.empty<Mark>)),
    attachments: new Owned<Attachment>(await backend.doc<OwnedDoc<Attachment>>('attachments', Owned.empty<Attachment>)),
    images: new ImageFiles(backend.blobs('images')),
    plates: new PlateFiles(backend.blobs('plates'), (name, work) => backend.alone(name, work)),
    plateSeals: new Owned<PlateSeal>(await backend.doc<OwnedDoc<PlateSeal>>('plate-seals', Owned.empty<PlateSeal>)),
    spend: new SpendBook(await backend.ledger<Spend>('meter')),
    archive: new TapeArchive(backend.tapeDays),
    seals: new Seals(backend.blobs('seals')),
    forecasts: new Forecasts(backend),
    forges: new Forges(await backend.doc<ForgesDoc>('forges', Forges.empty)),
    studio: new Studio(await backend.doc<StudioDoc>('studio', Studio.empty)),
    grades: await Grades.open(backend),
    trials: new Trials(await backend.doc<TrialsDoc>('trials', Trials.empty)),
    claims: await PlanClaims.open(backend),
    holders: await HolderLinks.open(backend),
    mandates: await Mandates.open(backend),
    series: await SeriesBook.open(backend),
    oauth: new OAuthBook(await backend.doc<OAuthDoc>('oauth', OAuthBook.empty)),
    book: new BookStore(await backend.ledger<OrderEvent>('orders'), await backend.ledger<FillRecord>('fills')),
    bookCaps: new BookCaps(await backend.doc<BookCapsDoc>('book-caps', BookCaps.empty)),
    models: new Models(await backend.doc<ModelsDoc>('models', Models.empty)),
    runs: new Runs(await backend.doc<RunsDoc>('runs', Owned.empty<RunRecord>)),
  };
}
