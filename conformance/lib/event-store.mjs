// Keeps every SSE event a session's streams sent, in memory, so a client that
// lost a stream (or was told to go: SEP-1699 polling) resumes it with
// Last-Event-ID. The SDKs take any object with this shape as `eventStore`.

export class InMemoryEventStore {
  #events = new Map(); // event id → { streamId, message }
  #nextSequence = 0;

  async storeEvent(streamId, message) {
    // The sequence is zero-padded so event ids sort in the order they were stored.
    const eventId = `${streamId}.${String(this.#nextSequence++).padStart(10, '0')}`;
    this.#events.set(eventId, { streamId, message });
    return eventId;
  }

  async getStreamIdForEventId(eventId) {
    return this.#events.get(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId, { send }) {
    const streamId = this.#events.get(lastEventId)?.streamId;
    if (streamId === undefined) throw new Error(`Unknown event id: ${lastEventId}`);
    for (const [eventId, event] of this.#events) {
      if (event.streamId === streamId && eventId > lastEventId) await send(eventId, event.message);
    }
    return streamId;
  }
}
