import { expect } from 'chai';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { messageEvent, primingEvent } from '../../../lib/transport/http/sse-framing';

/** What an EventSource reader (the one the official SDK client uses) makes of `text`. */
function read(text: string): { events: EventSourceMessage[]; retry?: number } {
  const seen: { events: EventSourceMessage[]; retry?: number } = { events: [] };
  const parser = createParser({ onEvent: (event) => seen.events.push(event), onRetry: (ms) => { seen.retry = ms; } });
  parser.feed(text);
  return seen;
}

const NOTE = { jsonrpc: '2.0' as const, method: 'notifications/message', params: { level: 'info', data: 'two\nlines\r\nand a : colon' } };

describe('sse-framing', () => {
  describe('messageEvent', () => {
    context('with an event id', () => {
      it('is one complete message event a reader parses back to the same message, with its id', () => {
        const { events } = read(messageEvent(NOTE, 'stream.3'));
        expect(events).to.have.length(1);
        expect(events[0]).to.include({ event: 'message', id: 'stream.3' });
        expect(JSON.parse(events[0].data)).to.deep.equal(NOTE);
      });
    });

    context('without an event id', () => {
      it('carries no id line, so the reader keeps none', () => {
        const text = messageEvent(NOTE);
        expect(text).not.to.match(/^id:/m);
        expect(read(text).events[0].id).to.equal(undefined);
      });
    });

    it('puts the whole message on one data line, whatever line breaks its strings hold', () => {
      expect(messageEvent(NOTE).split('\n').filter((line) => line.startsWith('data:'))).to.have.length(1);
    });

    it('ends with a blank line, so events written back to back stay apart', () => {
      const { events } = read(messageEvent(NOTE, 'a.1') + messageEvent({ jsonrpc: '2.0', id: 1, result: {} }, 'a.2'));
      expect(events.map((event) => event.id)).to.deep.equal(['a.1', 'a.2']);
    });
  });

  describe('primingEvent', () => {
    it('gives the reader an id to resume from and the retry delay, and no message', () => {
      const seen = read(primingEvent('stream.1', 1500));
      expect(seen.retry).to.equal(1500);
      expect(seen.events).to.have.length(1);
      expect(seen.events[0]).to.include({ id: 'stream.1', data: '' });
    });
  });
});
