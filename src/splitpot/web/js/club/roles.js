// A club's roles (docs/protocol.md "Clubs"): their words and what each lets the caller
// see and do, so that the page shows only the controls the caller's role allows. The room
// still decides: a control it refuses shows its refusal.

import { t } from "../i18n.js";

/** A role in words: "Owner", "Manager", "Member", "Asked to join". */
export function roleName(role) {
  return {
    owner: t("Owner"),
    manager: t("Manager"),
    member: t("Member"),
    asked: t("Asked to join"),
  }[role] || role;
}

/** A member (the owner and managers too): sees the club's lobby, members and ledger. */
export function isMember(role) {
  return role === "owner" || role === "manager" || role === "member";
}

/** A manager (the owner too): approves, removes members, opens tables, runs the schedule. */
export function isManager(role) {
  return role === "owner" || role === "manager";
}

/** The owner: changes the club and its roles. */
export function isOwner(role) {
  return role === "owner";
}

/** How one joins the club, in words. */
export function membershipName(membership) {
  return {
    open: t("Open: anyone who knows the club joins"),
    request: t("By request: a manager approves"),
    closed: t("Closed: by invite only"),
  }[membership] || membership;
}
