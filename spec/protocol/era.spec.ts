import 'reflect-metadata';
import { expect } from 'chai';
import { classify } from '../../lib/core/jsonrpc';
import { detectEra, speaksStatelessVersion, type Era, type EraSignals } from '../../lib/protocol/era';

const META = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } };
const request = (method: string, params?: object) => classify({ jsonrpc: '2.0', id: 1, method, params });
const notification = (method: string, params?: object) => classify({ jsonrpc: '2.0', method, params });
const response = classify({ jsonrpc: '2.0', id: 1, result: {} });

/** [what, signals, era]: the whole decision, one row per rule. */
const TABLE: ReadonlyArray<readonly [string, EraSignals, Era]> = [
  ['HTTP, a plain request without a session', { message: request('tools/list'), connection: 'http', sessionNamed: false }, 'session'],
  ['HTTP, a request with _meta and no session', { message: request('tools/list', META), connection: 'http', sessionNamed: false }, 'stateless'],
  ['HTTP, a notification with _meta', { message: notification('notifications/cancelled', META), connection: 'http', sessionNamed: false }, 'stateless'],
  ['HTTP, a request with _meta naming a session', { message: request('tools/list', META), connection: 'http', sessionNamed: true }, 'session'],
  ['HTTP, a version header of the stateless era', { message: request('tools/list'), connection: 'http', sessionNamed: false, versionHeader: '2026-07-28' }, 'stateless'],
  ['HTTP, a version header nobody speaks', { message: request('tools/list'), connection: 'http', sessionNamed: false, versionHeader: '1999-01-01' }, 'stateless'],
  ['HTTP, a session-era version header', { message: request('tools/list'), connection: 'http', sessionNamed: false, versionHeader: ' 2025-06-18 ' }, 'session'],
  ['HTTP, a response with a stateless version header', { message: response, connection: 'http', sessionNamed: false, versionHeader: '2026-07-28' }, 'stateless'],
  ['HTTP, a response without one', { message: response, connection: 'http', sessionNamed: false }, 'session'],
  ['HTTP, initialize with _meta and no session', { message: request('initialize', META), connection: 'http', sessionNamed: false }, 'stateless'],
  ['HTTP, a batch with a stateless version header', { message: 'batch', connection: 'http', sessionNamed: false, versionHeader: '2026-07-28' }, 'session'],
  ['a pipe, initialize with _meta before any request', { message: request('initialize', META), connection: 'pipe', sessionNamed: false }, 'session'],
  ['a pipe, a request with _meta before any request', { message: request('tools/list', META), connection: 'pipe', sessionNamed: false }, 'stateless'],
  ['a pipe pinned to the stateless era, a request without _meta', { message: request('tools/list'), connection: 'pipe', sessionNamed: false, pinned: 'stateless' }, 'stateless'],
  ['a pipe pinned to the stateless era, initialize', { message: request('initialize'), connection: 'pipe', sessionNamed: false, pinned: 'stateless' }, 'stateless'],
  ['a pipe with its session, a request with _meta', { message: request('tools/list', META), connection: 'pipe', sessionNamed: true, pinned: 'session' }, 'session'],
  ['a pipe, ping before initialize', { message: request('ping'), connection: 'pipe', sessionNamed: false }, 'session'],
];

describe('detectEra', () => {
  for (const [what, signals, era] of TABLE) {
    context(`when ${what}`, () => {
      it(`is the ${era} era`, () => {
        expect(detectEra(signals)).to.equal(era);
      });
    });
  }
});

describe('speaksStatelessVersion', () => {
  it('is true for any version the session era does not speak, false without a header', () => {
    expect([speaksStatelessVersion('2026-07-28'), speaksStatelessVersion('2025-11-25'), speaksStatelessVersion(undefined)]).to.deep.equal([true, false, false]);
  });
});
