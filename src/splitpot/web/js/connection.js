// The room's WebSocket (/ws), kept open: reconnects by itself with a growing delay after a
// dropped connection, and tells the page each time it is connected (to say hello anew).

const FIRST_DELAY = 500; // ms before the first reconnect
const LONGEST_DELAY = 10000;

// connect({onOpen, onMessage, onStatus}) -> {send(message), restart(), close()}.
// onOpen() runs on each (re)connect; onStatus("connecting" | "connected" | "reconnecting").
export function connect({ onOpen, onMessage, onStatus }) {
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
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
    const mine = new WebSocket(url);
    socket = mine;
    mine.addEventListener("open", () => {
      if (mine !== socket) return;
      opened = true;
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
      onMessage(message);
    });
    mine.addEventListener("close", () => {
      if (mine !== socket || closed) return;
      socket = null;
      onStatus("reconnecting");
      const wait = delay * (0.75 + Math.random() / 2);
      delay = Math.min(LONGEST_DELAY, delay * 2);
      timer = setTimeout(open, wait);
    });
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
