import type { HttpResponseLike } from '../http-like.types';

/*
 * The little of Express and Fastify that their error handlers touch, described here so that the
 * package depends on neither: an Express `Response` and a Fastify `FastifyRequest`/`FastifyReply`
 * satisfy these shapes as they are.
 */

/** Express's `next`: with an error, hands it to the next error middleware (in the end, Express's own). */
export type ExpressNext = (error?: unknown) => void;

/** An Express error middleware: Express knows one by its four parameters. */
export type ExpressErrorMiddleware = (error: unknown, req: unknown, res: HttpResponseLike, next: ExpressNext) => void;

/** What a Fastify error handler reads of the request: the route's body limit. */
export interface FastifyRequestLike {
  readonly routeOptions?: { readonly bodyLimit?: number };
}

/** What a Fastify error handler does with the reply. */
export interface FastifyReplyLike {
  /** Sets the status. */
  code(status: number): FastifyReplyLike;
  /** Sets one header. */
  header(name: string, value: string): FastifyReplyLike;
  /** Sends the body: a string is sent as it is. */
  send(payload?: unknown): unknown;
}

/**
 * A Fastify error handler, for `setErrorHandler` or a route's `errorHandler`: what it throws goes
 * on to the enclosing handler (in the end, Fastify's own).
 */
export type FastifyErrorHandler = (error: unknown, request: FastifyRequestLike, reply: FastifyReplyLike) => void;
