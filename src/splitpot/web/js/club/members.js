// The club's members (GET /api/clubs/{id}/members): each with their role; a manager
// approves or rejects those who asked and removes members, the owner names and unnames
// managers and removes a manager; a manager makes a new invite link to share.

import { request } from "../api.js";
import { element } from "../dom.js";
import { formatDate, t } from "../i18n.js";
import { act } from "./act.js";
import { inviteLink, rememberInvite, rememberedInvite } from "./invites.js";
import { isManager, isOwner, roleName } from "./roles.js";

function button(words, label, className, onClick) {
  const made = element("button", className, words);
  made.type = "button";
  made.setAttribute("aria-label", label);
  made.addEventListener("click", () => onClick(made));
  return made;
}

/** The commands the caller's role allows on `member`: [[words, label, class, method, path, body]]. */
function commands(member, role, me) {
  const name = member.name;
  const path = `/members/${encodeURIComponent(member.player)}`;
  if (member.player === me || member.role === "owner") return [];
  if (member.role === "asked") {
    if (!isManager(role)) return [];
    return [
      [t("Approve"), t("Approve {name}", { name }), "primary", "POST", `${path}/approve`],
      [t("Reject"), t("Reject {name}", { name }), "ghost", "POST", `${path}/reject`],
    ];
  }
  const found = [];
  if (isOwner(role)) {
    found.push(member.role === "manager"
      ? [t("Make member"), t("Make {name} a member", { name }), "", "PUT", `${path}/role`, { role: "member" }]
      : [t("Make manager"), t("Make {name} a manager", { name }), "", "PUT", `${path}/role`, { role: "manager" }]);
  }
  if (isOwner(role) || (isManager(role) && member.role === "member")) {
    found.push([t("Remove"), t("Remove {name} from the club", { name }), "danger", "DELETE", path]);
  }
  return found;
}

function memberItem(member, { role, me, clubPath, box }) {
  const item = element("li");
  item.dataset.player = member.player;
  item.dataset.role = member.role;
  const about = element("div", "grow");
  const since = member.role === "asked"
    ? t("asked {when}", { when: formatDate(member.since, { dateStyle: "medium" }) })
    : t("since {when}", { when: formatDate(member.since, { dateStyle: "medium" }) });
  about.append(element("strong", "", member.name), " ", element("span", "badge role", roleName(member.role)), element("span", "when", since));
  const actions = element("div", "actions");
  for (const [words, label, className, method, path, body] of commands(member, role, me)) {
    actions.append(button(words, label, className, (pressed) => {
      if (method === "DELETE" && !confirm(t("Remove {name} from the club?", { name: member.name }))) return;
      act(pressed, box, () => request(method, `${clubPath}${path}`, body));
    }));
  }
  item.append(about, actions);
  return item;
}

/** Draws those who asked (for a manager) and the members, each with what the caller may do. */
export function drawMembers({ requests, list, requestsBox }, members, context) {
  const asked = members.filter((member) => member.role === "asked");
  const joined = members.filter((member) => member.role !== "asked");
  requestsBox.hidden = asked.length === 0;
  requests.replaceChildren(...asked.map((member) => memberItem(member, context)));
  list.replaceChildren(...joined.map((member) => memberItem(member, context)));
}

/** Shows the invite link this browser knows of (a manager's), with a button for a new one. */
export function drawInvite({ holder, input, copy, fresh }, clubId, role) {
  holder.hidden = !isManager(role);
  const code = rememberedInvite(clubId);
  input.value = code ? inviteLink(clubId, code) : "";
  copy.hidden = !code;
  input.placeholder = t("Make a new invite link to share");
  fresh.textContent = code ? t("New invite link") : t("Make an invite link");
}

/** A manager's new invite code (the old one lets no one in): remembered and shown. */
export function newInvite(button, box, clubId) {
  return act(button, box, async () => {
    const answer = await request("POST", `/api/clubs/${encodeURIComponent(clubId)}/invite`);
    rememberInvite(clubId, answer.invite);
    return answer;
  });
}
