// The lobby's "Clubs" section: the caller's clubs (GET /api/clubs), each a link to its
// page; a new club (POST /api/clubs, then its page, the invite code remembered to share);
// joining with an invite link pasted here (its page joins on open).

import { identity, onIdentityChange, request, sentence } from "../api.js";
import { askForName } from "../signin.js";
import { element } from "../dom.js";
import { t, tn } from "../i18n.js";
import { readInviteLink, rememberInvite } from "./invites.js";
import { roleName } from "./roles.js";

const $ = (selector) => document.querySelector(selector);

function clubItem(club) {
  const item = element("li", "private-item");
  item.dataset.club = club.id;
  const head = element("div", "private-head");
  const link = element("a", "table-name", club.name);
  link.href = `/clubs/${encodeURIComponent(club.id)}`;
  head.append(link, element("span", "badge", roleName(club.role)), element("span", "badge", tn("{count} member", "{count} members", club.members)));
  item.append(head);
  return item;
}

async function drawClubs() {
  const list = $("#club-list");
  const status = $("#clubs-status");
  if (!identity()) {
    list.replaceChildren();
    status.textContent = t("Sign in to see your clubs, make one or join one.");
    return;
  }
  try {
    const { clubs } = await request("GET", "/api/clubs");
    list.replaceChildren(...clubs.map(clubItem));
    status.textContent = clubs.length ? "" : t("You are in no club yet: make one, or join one with its invite link.");
  } catch (error) {
    status.textContent = sentence(error.message);
  }
}

async function signedIn() {
  return identity() || askForName();
}

async function createClub(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const error = form.querySelector(".error-box");
  error.textContent = "";
  const submit = form.querySelector("button[type=submit]");
  submit.disabled = true;
  try {
    const body = { name: form.elements.name.value.trim(), membership: form.elements.membership.value };
    const { club, invite } = await request("POST", "/api/clubs", body);
    rememberInvite(club.id, invite);
    location.assign(`/clubs/${encodeURIComponent(club.id)}`);
  } catch (refusal) {
    error.textContent = sentence(refusal.message);
  } finally {
    submit.disabled = false;
  }
}

function joinClub(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const found = readInviteLink(form.elements.link.value);
  const error = form.querySelector(".error-box");
  if (!found) {
    error.textContent = t("Paste the club's invite link, like {example}.", { example: `${location.origin}/clubs/…?invite=…` });
    return;
  }
  const address = `/clubs/${encodeURIComponent(found.clubId)}`;
  location.assign(found.code ? `${address}?invite=${encodeURIComponent(found.code)}` : address);
}

/** Wires the section and draws the caller's clubs (again whenever they sign in or out). */
export function startClubs() {
  const dialog = $("#club-dialog");
  $("#new-club").addEventListener("click", async () => {
    const found = await signedIn();
    if (!found) return;
    const form = $("#club-create");
    form.querySelector(".error-box").textContent = "";
    if (!form.elements.name.value) form.elements.name.value = t("{name}'s club", { name: found.player.name }).slice(0, 40);
    dialog.showModal();
    form.elements.name.focus();
  });
  for (const close of dialog.querySelectorAll("[data-close]")) close.addEventListener("click", () => dialog.close());
  $("#club-create").addEventListener("submit", createClub);
  $("#club-join-form").addEventListener("submit", joinClub);
  onIdentityChange(drawClubs);
  drawClubs();
}
