import 'reflect-metadata';
import { expect } from 'chai';
import { IsString } from 'class-validator';
import {
  Context, DefinitionError, ErrorCode, Field, PhantomServer, Prompt, RequireScopes, Resource, ScopeGuard, SILENT_DIAGNOSTICS, Tool,
  UseGuards, scopesVisibility, userText, type AuthInfo, type CanActivate, type Outcome,
} from '../../lib';

function principal(...scopes: string[]): AuthInfo {
  return {
    subject: 'user-1', clientId: 'app', scopes, issuer: 'https://auth.example.com', audience: ['https://notes.example.com/mcp'],
    expiresAt: 2_000_000_000, claims: { sub: 'user-1', scope: scopes.join(' ') },
  };
}

function as(who: unknown): Context {
  return new Context({ principal: who });
}

function errorOf(outcome: Outcome): { code: number; message: string; data?: unknown } {
  if (!('error' in outcome)) throw new Error(`expected an error, got ${JSON.stringify(outcome)}`);
  return outcome.error as { code: number; message: string; data?: unknown };
}

class NoteArgs {
  @Field({ description: 'Topic' }) @IsString() topic!: string;
}

let guardCalls = 0;
class CountingGuard implements CanActivate {
  canActivate() {
    guardCalls += 1;
    return true;
  }
}

@RequireScopes('notes:read')
class NotesTools {
  @Tool({ description: 'Read the notes' })
  notes_read(_: unknown, ctx: Context) {
    return `notes of ${ctx.auth?.subject}`;
  }

  @RequireScopes('notes:write')
  @UseGuards(CountingGuard)
  @Tool({ description: 'Write a note', scopes: ['notes:audit'] })
  notes_write() {
    return 'written';
  }

  @Prompt({ description: 'Summarise a topic', scopes: ['notes:summary'], complete: { topic: ['work', 'home'] } })
  summary(args: NoteArgs) {
    return [userText(`Summarise ${args.topic}`)];
  }

  @Resource('notes://secret', { description: 'The secret note', scopes: ['notes:secret'] })
  secret() {
    return 'secret';
  }

  @Resource('notes://by-topic/{topic}', { description: 'Notes by topic', scopes: ['notes:secret'] })
  byTopic({ topic }: { topic: string }) {
    return topic;
  }
}

class PublicTools {
  @Tool({ description: 'Anyone may ping' })
  hello() {
    return 'hello';
  }
}

function serve(options: Partial<ConstructorParameters<typeof PhantomServer>[0]> = {}): PhantomServer {
  return new PhantomServer({ name: 'notes', version: '1.0.0', providers: [NotesTools, PublicTools], diagnostics: SILENT_DIAGNOSTICS, ...options });
}

describe('scopes on the decorators (@RequireScopes and the scopes option)', () => {
  beforeEach(() => { guardCalls = 0; });

  context('when the principal grants every scope a tool needs', () => {
    it('serves the call, and the handler reads the token\'s AuthInfo as ctx.auth', async () => {
      const outcome = await serve().handle('tools/call', { name: 'notes_read', arguments: {} }, as(principal('notes:read')));
      expect(outcome).to.have.nested.property('result.content[0].text', 'notes of user-1');
    });
  });

  context('when a scope is missing', () => {
    it('refuses with -32003 naming every required scope (class, method, option) and the missing ones', async () => {
      const error = errorOf(await serve().handle('tools/call', { name: 'notes_write', arguments: {} }, as(principal('notes:read', 'notes:write'))));
      expect(error.code).to.equal(ErrorCode.Forbidden);
      expect(error.data).to.deep.equal({ requiredScopes: ['notes:read', 'notes:write', 'notes:audit'], missingScopes: ['notes:audit'] });
      expect(error.message).to.equal('Insufficient scope: tools/call of notes_write needs the scopes notes:read notes:write notes:audit (missing: notes:audit)');
    });

    it('refuses before any other guard runs', async () => {
      await serve().handle('tools/call', { name: 'notes_write', arguments: {} }, as(principal('notes:read')));
      expect(guardCalls).to.equal(0);
      await serve().handle('tools/call', { name: 'notes_write', arguments: {} }, as(principal('notes:read', 'notes:write', 'notes:audit')));
      expect(guardCalls).to.equal(1);
    });

    it('refuses prompts, fixed resources, templates and completion alike', async () => {
      const server = serve();
      const reader = as(principal('notes:read'));
      const refusals = await Promise.all([
        server.handle('prompts/get', { name: 'summary', arguments: { topic: 'work' } }, reader),
        server.handle('resources/read', { uri: 'notes://secret' }, reader),
        server.handle('resources/read', { uri: 'notes://by-topic/work' }, reader),
        server.handle('completion/complete', { ref: { type: 'ref/prompt', name: 'summary' }, argument: { name: 'topic', value: 'w' } }, reader),
      ]);
      expect(refusals.map((outcome) => errorOf(outcome).data)).to.deep.equal([
        { requiredScopes: ['notes:read', 'notes:summary'], missingScopes: ['notes:summary'] },
        { requiredScopes: ['notes:read', 'notes:secret'], missingScopes: ['notes:secret'] },
        { requiredScopes: ['notes:read', 'notes:secret'], missingScopes: ['notes:secret'] },
        { requiredScopes: ['notes:read', 'notes:summary'], missingScopes: ['notes:summary'] },
      ]);
    });
  });

  context('when the caller has no principal (stdio, in-process, HTTP without authentication)', () => {
    it('refuses every scoped target: a declared scope is never waived', async () => {
      const server = serve();
      expect(errorOf(await server.handle('tools/call', { name: 'notes_read', arguments: {} })).code).to.equal(ErrorCode.Forbidden);
      expect(await server.handle('tools/call', { name: 'hello', arguments: {} })).to.have.nested.property('result.content[0].text', 'hello');
    });
  });

  context('when the principal is a custom hook\'s, with a scopes array', () => {
    it('reads its scopes too, while ctx.auth stays undefined', async () => {
      const outcome = await serve().handle('tools/call', { name: 'notes_read', arguments: {} }, as({ sub: 'ci-bot', scopes: ['notes:read'] }));
      expect(outcome).to.have.nested.property('result.content[0].text', 'notes of undefined');
    });
  });

  context('when a scope is not a scope token', () => {
    it('fails at start-up, naming the target', () => {
      class Bad {
        @Tool({ description: 'Bad', scopes: ['notes read'] }) bad() { return 1; }
      }
      expect(() => serve({ providers: [Bad] })).to.throw(DefinitionError, 'Bad#bad: "notes read" is not a scope');
    });
  });

  context('when @RequireScopes is on a property', () => {
    it('fails at start-up', () => {
      class Misplaced {
        @RequireScopes('a') value = 1;
        @Tool({ description: 'Ok' }) ok() { return 1; }
      }
      expect(() => serve({ providers: [Misplaced] })).to.throw(DefinitionError, 'Misplaced#value: @RequireScopes belongs on a class or a method');
    });
  });

  describe('PhantomServer#declaredScopes', () => {
    it('lists every declared scope once, for the protected-resource metadata', () => {
      expect(serve().declaredScopes()).to.deep.equal(['notes:read', 'notes:write', 'notes:audit', 'notes:summary', 'notes:secret']);
    });
  });
});

describe('scopesVisibility', () => {
  const names = (outcome: Outcome, key: string) => ((outcome as { result: Record<string, { name: string }[]> }).result[key]).map((item) => item.name);

  context('when passed as the server\'s visible rule', () => {
    it('hides from lists what the principal\'s scopes cannot use', async () => {
      const server = serve({ visible: scopesVisibility() });
      const reader = as(principal('notes:read'));
      expect(names(await server.handle('tools/list', {}, reader), 'tools')).to.deep.equal(['notes_read', 'hello']);
      expect(names(await server.handle('prompts/list', {}, reader), 'prompts')).to.deep.equal([]);
      expect(names(await server.handle('resources/list', {}, reader), 'resources')).to.deep.equal([]);
      expect(names(await server.handle('resources/templates/list', {}, reader), 'resourceTemplates')).to.deep.equal([]);
      expect(names(await server.handle('tools/list', {}, as(principal('notes:read', 'notes:write', 'notes:audit'))), 'tools')).to.deep.equal(['notes_read', 'notes_write', 'hello']);
    });

    it('answers a call to a hidden tool as for an unknown one', async () => {
      const error = errorOf(await serve({ visible: scopesVisibility() }).handle('tools/call', { name: 'notes_write', arguments: {} }, as(principal('notes:read'))));
      expect(error).to.deep.include({ code: ErrorCode.InvalidParams, message: 'Unknown tool: notes_write' });
    });

    it('applies the rule it is given too', async () => {
      const server = serve({ visible: scopesVisibility((item) => !(item.kind === 'tool' && item.name === 'hello')) });
      expect(names(await server.handle('tools/list', {}, as(principal('notes:read'))), 'tools')).to.deep.equal(['notes_read']);
    });
  });

  context('when the server has no visible rule (the default)', () => {
    it('lists every tool, so a call can be refused with the scopes to ask for (a step-up)', async () => {
      expect(names(await serve().handle('tools/list', {}, as(principal())), 'tools')).to.deep.equal(['notes_read', 'notes_write', 'hello']);
    });
  });
});

describe('ScopeGuard', () => {
  context('when used for every operation (server.use)', () => {
    it('refuses lists too to a principal without the scope', async () => {
      const server = serve().use(new ScopeGuard('mcp:access'));
      expect(errorOf(await server.handle('tools/list', {}, as(principal('notes:read')))).data).to.deep.equal({ requiredScopes: ['mcp:access'], missingScopes: ['mcp:access'] });
      expect(await server.handle('tools/list', {}, as(principal('mcp:access')))).to.have.nested.property('result.tools');
    });
  });

  it('refuses what is not a scope token at construction', () => {
    expect(() => new ScopeGuard('two words')).to.throw('"two words"');
  });
});

describe('Context', () => {
  describe('#auth', () => {
    it('is the principal when it is an AuthInfo', () => {
      const info = principal('notes:read');
      expect(as(info).auth).to.equal(info);
    });

    it('is undefined for any other principal', () => {
      expect(as({ sub: 'x' }).auth).to.equal(undefined);
      expect(new Context().auth).to.equal(undefined);
    });
  });
});
