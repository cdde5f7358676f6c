import { createServer, IncomingMessage, ServerResponse, type Server, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';
import type { HttpLimits } from '../config/env.js';

/** Node's request and response constructors, as functions a constructor of our own can call on its `this`. */
const initRequest = IncomingMessage as unknown as (this: IncomingMessage, socket: Socket) => void;
const initResponse = ServerResponse as unknown as (this: ServerResponse, req: IncomingMessage, options?: object) => void;

/** The deck's HTTP server, listening before the app that answers on it is built, and the call that puts the app on it. */
export interface DeckServer {
  server: Server;
  serve(app: Express): void;
}

/**
 * An HTTP server whose requests and responses are born with the express app's own prototypes. Express gives every
 * request and response its prototypes (app.request, app.response) with Object.setPrototypeOf as it takes them; an
 * object whose prototype changes after it is made takes a shape Node's HTTP code has not seen, and on Node 20 that
 * made a request cost three to four times the CPU (a bare express route about 75 µs, the same route on this server
 * about 22 µs: `npm run bench`). Built with app.request and app.response as their prototypes, they are already what
 * express makes of them, and its setPrototypeOf changes nothing. Everything else is express's as it was.
 */
export function deckServer(limits: HttpLimits): DeckServer {
  function DeckRequest(this: IncomingMessage, socket: Socket): void {
    initRequest.call(this, socket);
  }
  function DeckResponse(this: ServerResponse, req: IncomingMessage, options?: object): void {
    initResponse.call(this, req, options);
  }
  // Node's own until the app is there (a request then finds no listener, as before the app is served).
  DeckRequest.prototype = IncomingMessage.prototype;
  DeckResponse.prototype = ServerResponse.prototype;
  // How often Node looks for connections past their timeouts (one that never sends a byte too: its headers never
  // end), often enough that one is cut close to its time.
  const checking = Math.max(100, Math.min(5_000, limits.headersTimeoutMs / 4));
  const options = {
    IncomingMessage: DeckRequest,
    ServerResponse: DeckResponse,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: checking,
  } as unknown as ServerOptions;
  const server = createServer(options);
  // Past it a connection is closed as it opens (Node's 'drop'): the deck never reaches its open-file limit.
  server.maxConnections = limits.maxConnections;
  return {
    server,
    serve(app) {
      DeckRequest.prototype = app.request;
      DeckResponse.prototype = app.response;
      server.on('request', app);
    },
  };
}
