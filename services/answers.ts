/**
 * An answer already serialized, such as a sealed tape window: the REST adapter sends these bytes as they
 * are (the same request, the same bytes), MCP reads them back into structured content.
 */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}
}

/** An answer with a picture: MCP carries the PNG as image content beside the body. */
export class WithImage {
  constructor(
    readonly body: Record<string, unknown>,
    readonly png: Uint8Array,
  ) {}
}

/** A part of an answer kept by the deck, which the caller reads when it needs it (over MCP: a resource_link). */
export interface ResourceLink {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
}

/**
 * An answer whose large parts the deck keeps as resources: MCP carries the body as structuredContent, and as content
 * a short summary with a link to each part (resources/read fetches it); REST sends the body.
 */
export class WithLinks {
  constructor(
    readonly body: Record<string, unknown>,
    readonly summary: string,
    readonly links: readonly ResourceLink[],
  ) {}
}

/** One event of an answer sent as it is made. */
export interface StreamEvent {
  event: string;
  data: unknown;
}

/**
 * An answer the caller asked to receive as it is made (a model's words): REST sends each event as a server-sent event
 * and the whole answer last (event done); MCP, which answers once, waits for the whole. Ending the events early (the
 * caller went away) runs the generator's cleanup.
 */
export class EventStream {
  constructor(readonly events: AsyncGenerator<StreamEvent, Record<string, unknown>>) {}

  /** Reads every event and answers the whole. */
  async whole(): Promise<Record<string, unknown>> {
    for (;;) {
      const next = await this.events.next();
      if (next.done) return next.value;
    }
  }
}
