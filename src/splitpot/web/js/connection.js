// The room's WebSocket (/ws), kept open: reconnects by itself with a growing delay after a
// dropped connection, and tells the page each time it is connected (to say hello anew).
// A room of several processes names them all in its welcome (`servers`): when the one
// this page talks to is gone, the next is tried, round the list.

const FIRST_DELAY = 500; // ms before the first reconnect
const LONGEST_DELAY = 10000;

// connect({onOpen, onMessage, onStatus}) -> {send(message), restart(), close()}.
// onOpen() runs on each (re)connect; onStatus("connecting" | "connected" | "reconnecting").
export function connect({ onOpen, onMessage, onStatus }) {
  let servers = [socketUrl(location.href)];
  let current = 0; // the server tried now
  let socket = null;
  let delay = FIRST_DELAY;
  let closed = false;
  let timer = null;
  let opened = false; // connected once: later attempts are reconnects

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  function open() {
    timer = null;
    onStatus(opened ? "reconnecting" : "connecting");
    const mine = new WebSocket(servers[current % servers.length]);
    let answered = false; // this socket opened (else its server is not there)
    socket = mine;
    mine.addEventListener("open", () => {
      if (mine !== socket) return;
      opened = answered = true;
      delay = FIRST_DELAY;
      onStatus("connected");
      onOpen();
    });
    mine.addEventListener("message", (event) => {
      if (mine !== socket) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return; // not a message of the room
      }
      if (message?.type === "welcome" && Array.isArray(message.servers)) learn(message.servers);
      onMessage(message);
    });
    mine.addEventListener("close", () => {
      if (mine !== socket || closed) return;
      socket = null;
      onStatus("reconnecting");
      if (!answered && servers.length > 1) current += 1; // that one did not answer: the next
      const wait = delay * (0.75 + Math.random() / 2);
      if (current % servers.length === 0) delay = Math.min(LONGEST_DELAY, delay * 2);
      timer = setTimeout(open, wait);
    });
  }

  // The room's processes, this one first: the list to go round when it is gone.
  function learn(urls) {
    const known = urls.map(socketUrl).filter((url) => url !== null);
    if (known.length === 0) return;
    const now = servers[current % servers.length];
    servers = [now, ...known.filter((url) => url !== now)];
    current = 0;
  }

  // Back online or back to the tab: no need to wait out the delay.
  function reconnectNow() {
    if (closed || !timer) return;
    clearTimeout(timer);
    open();
  }
  window.addEventListener("online", reconnectNow);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") reconnectNow();
  });

  open();
  return {
    send,
    // A new connection at once (after signing in: hello again with the new token).
    restart() {
      const old = socket;
      if (timer) clearTimeout(timer);
      socket = null;
      if (old) old.close();
      open();
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (socket) socket.close();
    },
  };
}

// The WebSocket of a room process at an http(s) address: http://h:8000 -> ws://h:8000/ws.
function socketUrl(address) {
  let parsed;
  try {
    parsed = new URL(address);
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  return `${parsed.protocol === "https:" ? "wss" : "ws"}://${parsed.host}/ws`;
}
