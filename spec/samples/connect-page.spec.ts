import { createServer, request, type Server } from 'node:http';
import { connect as connectSocket, type AddressInfo } from 'node:net';
import { requestDeadlines } from '../../lib/entries/http';
import { serve } from '../../samples/04-elicitation/main';
import { expect } from 'chai';
import { ConnectPage, escapeHtml } from '../../samples/04-elicitation/connect-page';
import { PendingAnswers } from '../../samples/04-elicitation/pending-answers';

/** The page alone on a loopback port, as the sample mounts it. */
async function servePage(answers = new PendingAnswers(), options: ConstructorParameters<typeof ConnectPage>[1] = {}) {
  const page = new ConnectPage(answers, options);
  const http: Server = createServer((req, res) => void page.handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  page.publishAt(origin);
  const submitted: string[] = [];
  page.onSubmitted((id) => submitted.push(id));
  return { page, answers, origin, submitted, close: () => new Promise<void>((resolve) => { http.closeAllConnections(); http.close(() => resolve()); }) };
}

/** A GET with the Host header given (fetch always sends the URL's). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => { body += chunk; }).on('end', () => resolve({ status: res.statusCode!, body }));
    }).on('error', reject).end();
  });
}

/** Sends a POST's headers and the first byte of its 64-byte form, then nothing: resolves with the status line the server answers. */
function stalledPost(url: string): Promise<string> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connectSocket(Number(port), hostname, () => {
      socket.write(`POST ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 64\r\n\r\nt`);
    });
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => { answer += chunk; }).on('close', () => resolve(answer.split('\r\n')[0])).on('error', reject);
  });
}

const tokenOf = (html: string) => /name="token" value="([^"]+)"/.exec(html)![1];

function post(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(form).toString() });
}

describe('ConnectPage (samples/04-elicitation)', () => {
  let served: Awaited<ReturnType<typeof servePage>>;
  beforeEach(async () => (served = await servePage(new PendingAnswers(), { maxValueLength: 20, maxBodyBytes: 512 })));
  afterEach(() => served.close());

  describe('#open', () => {
    it('links to this server\'s own page under the elicitation id', () => {
      const link = served.page.open('Sign in');
      expect(link.url).to.equal(`${served.origin}/connect/${link.elicitationId}`);
    });

    it('keeps a publicUrl given at construction over the listen address', () => {
      const page = new ConnectPage(new PendingAnswers(), { publicUrl: 'https://greeter.example.com/' });
      page.publishAt('http://127.0.0.1:3000');
      const link = page.open('Sign in');
      expect(link.url).to.equal(`https://greeter.example.com/connect/${link.elicitationId}`);
    });
  });

  describe('#handle', () => {
    context('when the id is unknown', () => {
      it('answers 404 to GET and POST', async () => {
        expect((await fetch(`${served.origin}/connect/nope`)).status).to.equal(404);
        expect((await post(`${served.origin}/connect/nope`, { token: 'x', value: 'Ada' })).status).to.equal(404);
      });
    });

    context('when the form is shown', () => {
      it('escapes the message and sends headers that forbid scripts and framing', async () => {
        const link = served.page.open('<script>alert(1)</script> & "you"');
        const response = await fetch(link.url);
        const html = await response.text();
        expect(response.status).to.equal(200);
        expect(html).to.contain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;you&quot;').and.not.contain('<script>');
        expect(response.headers.get('content-security-policy')).to.contain("default-src 'none'").and.contain("frame-ancestors 'none'");
        expect(response.headers.get('cache-control')).to.equal('no-store');
      });
    });

    context('when the form is posted with its token', () => {
      it('hands the typed value to the tool, reports the id as submitted, and answers the next POST with 404', async () => {
        const link = served.page.open('Sign in');
        const token = tokenOf(await (await fetch(link.url)).text());
        const done = await post(link.url, { token, value: '  Ada <b>  ' });
        expect(done.status).to.equal(200);
        expect(await done.text()).to.contain('Thank you, Ada &lt;b&gt;.');
        expect(await link.answer).to.equal('Ada <b>');
        expect(served.submitted).to.deep.equal([link.elicitationId]);
        expect((await post(link.url, { token, value: 'Mallory' })).status).to.equal(404);
        expect((await fetch(link.url)).status).to.equal(404);
      });
    });

    context('when the POST lacks the page\'s token (CSRF)', () => {
      it('answers 403 and the page goes on waiting', async () => {
        const link = served.page.open('Sign in');
        const token = tokenOf(await (await fetch(link.url)).text());
        expect((await post(link.url, { value: 'Mallory' })).status).to.equal(403);
        expect((await post(link.url, { token: token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')), value: 'Mallory' })).status).to.equal(403);
        expect(served.answers.find(link.elicitationId)).to.not.equal(undefined);
        expect(served.submitted).to.deep.equal([]);
      });
    });

    context('when the value is empty or too long', () => {
      it('answers 400 with the form again, the typed value escaped', async () => {
        const link = served.page.open('Sign in');
        const token = tokenOf(await (await fetch(link.url)).text());
        const tooLong = '"><img src=x onerror=alert(1)>';
        const response = await post(link.url, { token, value: tooLong });
        expect(response.status).to.equal(400);
        expect(await response.text()).to.contain(`value="${escapeHtml(tooLong)}"`).and.not.contain('<img');
        expect((await post(link.url, { token, value: '   ' })).status).to.equal(400);
        expect(served.answers.find(link.elicitationId)).to.not.equal(undefined);
      });
    });

    context('when the body is not a form or is too large', () => {
      it('answers 415 and 413', async () => {
        const link = served.page.open('Sign in');
        const token = tokenOf(await (await fetch(link.url)).text());
        expect((await fetch(link.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).to.equal(415);
        expect((await post(link.url, { token, value: 'x'.repeat(1024) })).status).to.equal(413);
      });
    });

    context('when the Host header names another server (DNS rebinding)', () => {
      it('answers 403 without the page or its token, and the page goes on waiting', async () => {
        const link = served.page.open('Sign in');
        const token = tokenOf(await (await fetch(link.url)).text());
        const answer = await getWithHost(link.url, 'attacker.example:80');
        expect(answer.status).to.equal(403);
        expect(answer.body).not.to.contain(token);
        expect(served.answers.find(link.elicitationId)).to.not.equal(undefined);
      });

      it('answers the host of its public URL', async () => {
        const page = await servePage(new PendingAnswers(), { publicUrl: 'https://greeter.example.com' });
        try {
          const link = page.page.open('Sign in');
          const local = `${page.origin}/connect/${link.elicitationId}`;
          expect((await getWithHost(local, 'greeter.example.com')).status).to.equal(200);
          expect((await getWithHost(local, 'other.example.com')).status).to.equal(403);
        } finally {
          await page.close();
        }
      });
    });

    context('when the form body trickles in past bodyTimeoutMs', () => {
      it('answers 408 and closes the connection; the page goes on waiting', async () => {
        const slow = await servePage(new PendingAnswers(), { bodyTimeoutMs: 100 });
        try {
          const link = slow.page.open('Sign in');
          expect(await stalledPost(link.url)).to.equal('HTTP/1.1 408 Request Timeout');
          expect(slow.answers.find(link.elicitationId)).to.not.equal(undefined);
        } finally {
          await slow.close();
        }
      });
    });

    context('when the user declined and the tool gave the page up', () => {
      it('answers 404 and the tool hears undefined', async () => {
        const link = served.page.open('Sign in');
        link.cancel();
        expect(await link.answer).to.equal(undefined);
        expect((await fetch(link.url)).status).to.equal(404);
      });
    });
  });
});

describe('serve (samples/04-elicitation)', () => {
  it('gives the page\'s HTTP server the request deadlines listen() gives /mcp', async () => {
    const serving = await serve(['--http', '--port', '0'], () => undefined);
    try {
      const expected = requestDeadlines({});
      expect({ headersTimeout: serving.http.headersTimeout, requestTimeout: serving.http.requestTimeout })
        .to.deep.equal({ headersTimeout: expected.headersTimeout, requestTimeout: expected.requestTimeout });
    } finally {
      await serving.close();
    }
  });
});

describe('PendingAnswers (samples/04-elicitation)', () => {
  describe('#open', () => {
    context('when maxPending pages already wait', () => {
      it('forgets the oldest, whose tool hears undefined', async () => {
        const answers = new PendingAnswers({ maxPending: 2 });
        const [first, second, third] = [answers.open('a'), answers.open('b'), answers.open('c')];
        expect(await first.answer).to.equal(undefined);
        expect(answers.size).to.equal(2);
        expect(answers.find(first.elicitationId)).to.equal(undefined);
        expect(answers.find(second.elicitationId)).to.equal(second);
        expect(answers.find(third.elicitationId)).to.equal(third);
      });
    });

    context('when ttlMs passes without an answer', () => {
      it('forgets the page and its tool hears undefined', async () => {
        const answers = new PendingAnswers({ ttlMs: 10 });
        const pending = answers.open('a');
        expect(await pending.answer).to.equal(undefined);
        expect(answers.find(pending.elicitationId)).to.equal(undefined);
      });
    });

    context('when the tool call ends first (its signal aborts)', () => {
      it('forgets the page', async () => {
        const answers = new PendingAnswers();
        const call = new AbortController();
        const pending = answers.open('a', call.signal);
        call.abort();
        expect(await pending.answer).to.equal(undefined);
        expect(answers.size).to.equal(0);
      });
    });
  });

  describe('#settle', () => {
    it('answers an id once', async () => {
      const answers = new PendingAnswers();
      const pending = answers.open('a');
      expect(answers.settle(pending.elicitationId, 'Ada')).to.equal(true);
      expect(answers.settle(pending.elicitationId, 'Mallory')).to.equal(false);
      expect(await pending.answer).to.equal('Ada');
    });
  });
});
