// Following a tournament live, for the big screen and the players' phones: its event
// stream says when the tournament changed (each event's data: its `version`, and `phones`,
// which moves with what a player's page shows) and the page fetches what it shows;
// `changed` gets that data, or null at each poll. Without the stream (no EventSource, a refusal, or three
// failures in a row) the page polls every `pollMs` instead, and tries the stream again a
// minute later. `root.dataset.following` says which ("stream" or "poll"), for the tests.

const STREAM_FAILURES = 3;
const STREAM_RETRY_MS = 60000;

export function follow(root, { address, changed, pollMs }) {
  let poller = null;
  let failures = 0;

  function poll() {
    root.dataset.following = "poll";
    if (poller === null) poller = setInterval(() => changed(null), pollMs);
  }

  function listen() {
    const source = new EventSource(address());
    source.onopen = () => {
      failures = 0;
      root.dataset.following = "stream";
      clearInterval(poller);
      poller = null;
    };
    source.addEventListener("update", (event) => {
      failures = 0;
      changed(JSON.parse(event.data));
    });
    source.addEventListener("gone", () => source.close());
    source.onerror = () => {
      // The server ends a stream after a while and the browser reconnects by itself
      // (CONNECTING); refused (CLOSED) or failing again and again, the page polls.
      failures += 1;
      if (source.readyState === EventSource.CLOSED || failures >= STREAM_FAILURES) {
        source.close();
        changed(null);
        poll();
        setTimeout(() => {
          failures = 0;
          listen();
        }, STREAM_RETRY_MS);
      }
    };
  }

  if (window.EventSource && root.dataset.stream) listen();
  else poll();
}
