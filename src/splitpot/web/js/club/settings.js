// The owner's form that changes the club (PATCH /api/clubs/{id}): its name and how one
// joins. It shows the club as the room has it, but never over what the owner is typing.

import { request } from "../api.js";
import { element } from "../dom.js";
import { act } from "./act.js";
import { membershipName } from "./roles.js";

const MEMBERSHIPS = ["open", "request", "closed"];

/** Fills the form with the club's name and membership (a field being typed in is left alone). */
export function fillClubSettings(form, club) {
  const { name, membership } = form.elements;
  if (!membership.options.length) {
    membership.append(...MEMBERSHIPS.map((value) => {
      const option = element("option", "", membershipName(value));
      option.value = value;
      return option;
    }));
  }
  if (name !== document.activeElement) name.value = club.name;
  if (membership !== document.activeElement) membership.value = club.membership;
}

/** Sends the owner's changes of the club `clubId()`; a refusal shows in the form. */
export function wireClubSettings(form, clubId) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = { name: form.elements.name.value.trim(), membership: form.elements.membership.value };
    act(form.querySelector("button[type=submit]"), form.querySelector(".error-box"), () => request("PATCH", `/api/clubs/${encodeURIComponent(clubId())}`, body));
  });
}
