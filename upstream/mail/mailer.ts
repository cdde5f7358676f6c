import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config/env.js';
import { refusedBy, unreachable } from '../../core/errors.js';
import { publishCall } from '../watch.js';

const NAME = 'the mail server';

/** What nodemailer calls a failure to reach the server (no answer, a dropped or timed-out connection, no such host). */
const UNREACHED = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ETLS', 'EPROXY']);

/** A mail the deck sends: plain text to one address. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * The email door's way out: mail sent over SMTP with nodemailer, to the server DECK_SMTP_URL names (smtps: TLS from
 * the start; smtp: STARTTLS when the server offers it), signed in with the URL's user and DECK_SMTP_PASSWORD (or the
 * URL's own password). A server that cannot be reached is 503; one that refuses the mail (authentication, recipient,
 * message) is 502 carrying its code and answer, never the credentials. Bounded: 10 s to connect, greet and answer.
 */
export class Mailer {
  private readonly transport: Transporter;

  constructor(
    private readonly config: NonNullable<Config['email']>,
    timeoutMs = 10_000,
  ) {
    const u = new URL(config.smtpUrl);
    const secure = u.protocol === 'smtps:';
    const user = decodeURIComponent(u.username);
    const pass = config.password ?? decodeURIComponent(u.password);
    this.transport = nodemailer.createTransport({
      host: u.hostname.replace(/^\[|\]$/g, ''),
      port: u.port ? Number(u.port) : secure ? 465 : 587,
      secure,
      ...(user ? { auth: { user, pass } } : {}),
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      // One mail at a time needs no pool: each sign-in mail opens and closes its own connection.
      pool: false,
    });
  }

  async send(mail: Mail): Promise<void> {
    const started = performance.now();
    try {
      await this.transport.sendMail({ from: this.config.from, to: mail.to, subject: mail.subject, text: mail.text });
      publishCall(NAME, started, 'ok', 250);
    } catch (error) {
      const e = error as { code?: string; responseCode?: number; response?: string; message?: string };
      if (e.code && UNREACHED.has(e.code)) {
        publishCall(NAME, started, 'unreachable', null);
        throw unreachable(NAME, e.code);
      }
      publishCall(NAME, started, 'refused', e.responseCode ?? null);
      throw refusedBy(NAME, { code: e.code ?? null, status: e.responseCode ?? null, response: e.response ?? e.message ?? null });
    }
  }
}
