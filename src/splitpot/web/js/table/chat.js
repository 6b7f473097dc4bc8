// Chat and the dealer's log, side by side (collapsible): players' lines and the dealer's
// words (the events' `text`), always set as text.

import { t } from "../i18n.js";

const KEEP = 300; // lines kept in each log

export function createChat({ send }) {
  const chatLog = document.querySelector("#chat-log");
  const dealerLog = document.querySelector("#dealer-log");
  const form = document.querySelector("#chat-form");
  const input = form.elements.chat;
  const errorBox = document.querySelector("#chat-error");
  const toggle = document.querySelector("#toggle-talk");
  const panes = document.querySelector("#talk-panes");
  let tableId = null;

  function append(log, line) {
    const nearBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    log.append(line);
    while (log.children.length > KEEP) log.firstElementChild.remove();
    if (nearBottom) log.scrollTop = log.scrollHeight;
  }

  function addChat(from, text) {
    const line = document.createElement("li");
    line.className = "chat-line";
    const who = document.createElement("span");
    who.className = "chat-from";
    who.textContent = from ? (from.seat == null ? t("{name} (watching)", { name: from.name }) : from.name) : "";
    const said = document.createElement("span");
    said.className = "chat-text";
    said.textContent = text;
    line.append(who, said);
    append(chatLog, line);
  }

  function addDealer(text, kind) {
    const line = document.createElement("li");
    line.className = "log-line";
    if (kind) line.dataset.event = kind;
    line.textContent = text;
    append(dealerLog, line);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || !tableId) return;
    if (send({ type: "chat", table: tableId, text, ref: "chat" })) {
      input.value = "";
      errorBox.textContent = "";
    } else {
      errorBox.textContent = t("Not connected: the line was not sent.");
    }
  });

  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = open ? t("Hide chat") : t("Show chat");
    panes.hidden = !open;
    document.body.classList.toggle("talk-hidden", !open);
    localStorage.setItem("splitpot.talk", open ? "open" : "closed");
  });
  if (localStorage.getItem("splitpot.talk") === "closed") toggle.click();

  return {
    addChat,
    addDealer,
    setTable(id) {
      tableId = id;
    },
    // Watchers without a name may not chat.
    allowChat(allowed) {
      input.disabled = !allowed;
      form.querySelector("button").disabled = !allowed;
      input.placeholder = allowed ? t("Say something…") : t("Sign in to chat");
    },
    refused(message) {
      errorBox.textContent = message;
    },
  };
}
