import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostAllowed } from '../../lib/entries/http';
import { PendingAnswers, type PendingAnswer } from './pending-answers';

/** Limits of what a browser may post to the page. */
export interface ConnectPageOptions {
  /**
   * Where the page is reached from the user's browser, e.g. `https://mcp.example.com` (a proxy in
   * front must pass `/connect/...` on unchanged). Default: none until `publishAt()` is called
   * with the URL the server listens on.
   */
  readonly publicUrl?: string;
  /**
   * Host header values the page answers (DNS-rebinding protection, as `/mcp`'s `allowedHosts`):
   * default the loopback names and the host of the public URL; any other Host gets 403 and never
   * the page (its form carries a token).
   */
  readonly allowedHosts?: readonly string[];
  /** Largest form body, in bytes (default 4096); larger ones get 413. */
  readonly maxBodyBytes?: number;
  /** How long a form body may take to arrive once reading starts, in ms (default 30 s, as `/mcp`'s `bodyTimeoutMs`); a slower one gets 408. */
  readonly bodyTimeoutMs?: number;
  /** Longest value the user may type, in characters (default 200). */
  readonly maxValueLength?: number;
}

/** A page the tool sends the user to, and what the user will type there. */
export interface ConnectLink {
  readonly elicitationId: string;
  /** The page, at this server's public URL. */
  readonly url: string;
  /** What the user typed, once they submit; `undefined` when the page expired or was given up. */
  readonly answer: Promise<string | undefined>;
  /** Gives the page up (the user declined): its URL answers 404 from now on. */
  cancel(): void;
}

const PREFIX = '/connect/';

/**
 * The sign-in page of a URL elicitation: `GET /connect/:elicitationId` shows a form, its POST
 * hands the typed value to the waiting tool and tells the client the elicitation is complete.
 * Everything it echoes is HTML-escaped; the POST must carry the page's own CSRF token; an id
 * that is unknown, expired or already answered gets 404.
 */
export class ConnectPage {
  private publicUrl?: string;
  private readonly maxBodyBytes: number;
  private readonly bodyTimeoutMs: number;
  private readonly maxValueLength: number;
  private readonly allowedHosts?: readonly string[];
  private readonly submittedListeners = new Set<(elicitationId: string) => unknown>();

  constructor(private readonly answers = new PendingAnswers(), options: ConnectPageOptions = {}) {
    this.publicUrl = options.publicUrl;
    this.maxBodyBytes = options.maxBodyBytes ?? 4096;
    this.bodyTimeoutMs = options.bodyTimeoutMs ?? 30_000;
    this.allowedHosts = options.allowedHosts;
    this.maxValueLength = options.maxValueLength ?? 200;
  }

  /** Sets where the pages are reached, once the server knows the URL it listens on (unless `publicUrl` was given). */
  publishAt(url: string): void {
    this.publicUrl ??= url;
  }

  /** Called with the elicitation id of each answered page: the place to `notifyElicitationComplete`. */
  onSubmitted(listener: (elicitationId: string) => unknown): void {
    this.submittedListeners.add(listener);
  }

  /** A new page asking `message`; `signal` (the tool call's) gives it up when the call ends first. */
  open(message: string, signal?: AbortSignal): ConnectLink {
    if (this.publicUrl === undefined) throw new Error('The connect page is not served yet: call publishAt() with the server\'s URL, or pass publicUrl');
    const pending = this.answers.open(message, signal);
    return {
      elicitationId: pending.elicitationId,
      url: `${this.publicUrl.replace(/\/+$/, '')}${PREFIX}${encodeURIComponent(pending.elicitationId)}`,
      answer: pending.answer,
      cancel: () => void this.answers.settle(pending.elicitationId, undefined),
    };
  }

  /** Whether the request is for a page (the rest goes elsewhere: the MCP endpoint, a 404). */
  serves(req: IncomingMessage): boolean {
    return pathOf(req).startsWith(PREFIX);
  }

  /** Answers a request that `serves()`; never throws. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req, this.hosts())) return reply(res, 403, plainPage('Unknown host', 'This page is not served under that name.'));
    const pending = this.answers.find(decodeId(pathOf(req).slice(PREFIX.length)));
    if (!pending) return reply(res, 404, notFoundPage());
    if (req.method === 'GET' || req.method === 'HEAD') return reply(res, 200, formPage(pending, this.maxValueLength));
    if (req.method !== 'POST') return reply(res, 405, plainPage('Method not allowed', 'This page answers GET and POST only.'), { allow: 'GET, HEAD, POST' });
    if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return reply(res, 415, plainPage('Unsupported form', 'Submit the form on this page.'));
    }
    const body = await readBody(req, this.maxBodyBytes, this.bodyTimeoutMs);
    if (body === 'too_large') return reply(res, 413, plainPage('Too large', 'That answer is too large.'), { connection: 'close' });
    if (body === 'timeout') return reply(res, 408, plainPage('Too slow', 'The form took too long to arrive. Submit it again.'), { connection: 'close' });
    const form = new URLSearchParams(body.text);
    if (!sameToken(form.get('token') ?? '', pending.token)) {
      return reply(res, 403, plainPage('This form has expired', 'Open the link your client gave you again.'));
    }
    const value = (form.get('value') ?? '').trim();
    if (!value || value.length > this.maxValueLength) {
      return reply(res, 400, formPage(pending, this.maxValueLength, value, `Type a name of 1 to ${this.maxValueLength} characters.`));
    }
    // Taken before anything else can run: a second POST of the same form finds nothing (404).
    if (!this.answers.settle(pending.elicitationId, value)) return reply(res, 404, notFoundPage());
    for (const listener of this.submittedListeners) {
      Promise.resolve().then(() => listener(pending.elicitationId)).catch(() => undefined);
    }
    reply(res, 200, plainPage('Signed in', `Thank you, ${escapeHtml(value)}. You can close this tab and go back to your client.`));
  }

  /** The hosts the page answers: those given, else loopback and the public URL's. */
  private hosts(): readonly string[] {
    if (this.allowedHosts) return this.allowedHosts;
    const loopback = ['localhost', '127.0.0.1', '[::1]'];
    return this.publicUrl === undefined ? loopback : [...loopback, new URL(this.publicUrl).host];
  }
}

function pathOf(req: IncomingMessage): string {
  return (req.url ?? '/').split('?')[0];
}

function decodeId(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return '';
  }
}

/** Compares in constant time: the token must not leak byte by byte through response timing. */
function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The body as text; `too_large` once it grows past `limit` bytes, `timeout` when it is not all in
 * within `timeoutMs` (a client sending a byte now and then would hold the connection for ever).
 * Either way the rest is not kept.
 */
function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<{ readonly text: string } | 'too_large' | 'timeout'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (outcome: 'too_large' | 'timeout') => {
      clearTimeout(deadline);
      chunks.length = 0;
      req.removeAllListeners('data');
      req.pause();
      resolve(outcome);
    };
    const deadline = setTimeout(() => stop('timeout'), timeoutMs);
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return stop('too_large');
      chunks.push(chunk);
    });
    req.once('end', () => {
      clearTimeout(deadline);
      resolve({ text: Buffer.concat(chunks).toString('utf8') });
    });
    req.once('error', () => stop('timeout'));
  });
}

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  // The page runs no script and is never framed (clickjacking); the form posts only back here.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

function reply(res: ServerResponse, status: number, html: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...HEADERS, ...extra });
  res.end(html);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)}</title>
<style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#222}
input,button{font:inherit;padding:.5rem}input{width:100%;box-sizing:border-box;margin:.5rem 0 1rem}
.error{color:#b00020}</style></head>
<body>${body}</body></html>
`;
}

function formPage(pending: PendingAnswer, maxLength: number, value = '', error?: string): string {
  return layout('Sign in', `<h1>${escapeHtml(pending.message)}</h1>
<form method="post">
<input type="hidden" name="token" value="${escapeHtml(pending.token)}">
<label for="value">Your name</label>
<input id="value" name="value" required maxlength="${maxLength}" autocomplete="name" value="${escapeHtml(value)}">
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}<button type="submit">Sign in</button>
</form>`);
}

function plainPage(title: string, safeHtml: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p>${safeHtml}</p>`);
}

function notFoundPage(): string {
  return plainPage('Link not found', 'This sign-in link is unknown, has expired, or was already used. Ask your client to start again.');
}
