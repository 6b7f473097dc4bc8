// The sign-in dialog shared by the pages: play as a guest under a name, or sign up / log in
// to an account with a password; optionally "Just watch". The room's refusals show inline.

import { ApiError, logIn, sentence, signInAsGuest, signUp } from "./api.js";
import { t } from "./i18n.js";

const NAME_LENGTH = 24;
const PASSWORD_LENGTH = 8;

let dialog = null;
let settle = null; // resolves the pending askForName

function element(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

function field(id, labelText, input, hint) {
  const wrapper = element("div", { class: "field" });
  const label = element("label", { for: id }, labelText);
  const error = element("p", { id: `${id}-error`, class: "field-error error", role: "alert" });
  input.id = id;
  const described = [`${id}-error`];
  wrapper.append(label, input);
  if (hint) {
    wrapper.append(element("p", { id: `${id}-hint`, class: "hint" }, hint));
    described.unshift(`${id}-hint`);
  }
  input.setAttribute("aria-describedby", described.join(" "));
  wrapper.append(error);
  return wrapper;
}

function build() {
  const node = element("dialog", { id: "signin", "aria-labelledby": "signin-title" });
  const form = element("form", { novalidate: "" });
  const title = element("h2", { id: "signin-title" }, t("Join the game"));
  const intro = element(
    "p",
    { class: "muted signin-intro" },
    t("Pick a name and play as a guest, or add a password to keep your name with an account."),
  );
  const name = element("input", {
    name: "name",
    type: "text",
    autocomplete: "username",
    maxlength: String(NAME_LENGTH),
    spellcheck: "false",
    autocapitalize: "words",
    required: "",
  });
  const password = element("input", {
    name: "password",
    type: "password",
    autocomplete: "current-password",
    maxlength: "1024",
  });
  const general = element("p", { class: "error-box", role: "alert", id: "signin-error" });
  const guest = element("button", { type: "submit", class: "primary signin-guest", value: "guest" }, t("Play as guest"));
  const accountRow = element("div", { class: "button-row signin-account" });
  const signUpButton = element("button", { type: "submit", value: "signup" }, t("Sign up"));
  const logInButton = element("button", { type: "submit", value: "login" }, t("Log in"));
  accountRow.append(signUpButton, logInButton);
  const watch = element("button", { type: "button", class: "ghost signin-watch", value: "watch" }, t("Just watch"));
  form.append(
    title,
    intro,
    field("signin-name", t("Name"), name, t("1 to {most} characters, as the table will see it.", { most: NAME_LENGTH })),
    field(
      "signin-password",
      t("Password (for an account)"),
      password,
      t("{least} characters or more. Leave it empty to play as a guest.", { least: PASSWORD_LENGTH }),
    ),
    general,
    guest,
    element("p", { class: "signin-or muted" }, t("or with the password")),
    accountRow,
    watch,
  );
  node.append(form);
  document.body.append(node);

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    // Enter in the password box logs in; elsewhere the pressed button decides
    const choice = event.submitter?.value
      || (document.activeElement === password && password.value ? "login" : "guest");
    attempt(choice);
  });
  password.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && password.value) {
      event.preventDefault();
      attempt("login");
    }
  });
  watch.addEventListener("click", () => finish(null));
  node.addEventListener("cancel", (event) => {
    event.preventDefault();
    finish(null);
  });
  return node;
}

function parts() {
  const form = dialog.querySelector("form");
  return {
    form,
    name: form.elements.name,
    password: form.elements.password,
    nameError: dialog.querySelector("#signin-name-error"),
    passwordError: dialog.querySelector("#signin-password-error"),
    general: dialog.querySelector("#signin-error"),
    watch: dialog.querySelector(".signin-watch"),
    buttons: form.querySelectorAll("button"),
  };
}

function clearErrors() {
  const { name, password, nameError, passwordError, general } = parts();
  for (const box of [nameError, passwordError, general]) box.textContent = "";
  name.removeAttribute("aria-invalid");
  password.removeAttribute("aria-invalid");
}

function showError(where, message) {
  const { name, password, nameError, passwordError, general } = parts();
  const target = { name: [name, nameError], password: [password, passwordError] }[where];
  if (!target) {
    general.textContent = message;
    return;
  }
  const [input, box] = target;
  input.setAttribute("aria-invalid", "true");
  box.textContent = message;
  input.focus();
}

/** Which field a refusal of the room is about. */
function fieldOf(error) {
  if (!(error instanceof ApiError)) return "general";
  if (error.code === "unauthorized") return "password";
  if (error.code === "name_taken") return "name";
  if (error.code === "bad_message") return /password/i.test(error.message) ? "password" : "name";
  return "general";
}

async function attempt(choice) {
  const { name, password, buttons, form } = parts();
  clearErrors();
  const chosenName = name.value.trim();
  if (!chosenName) {
    showError("name", t("Enter a name first."));
    return;
  }
  if (choice !== "guest" && !password.value) {
    showError("password", choice === "signup"
      ? t("Enter a password to sign up ({least} characters or more), or play as a guest.", { least: PASSWORD_LENGTH })
      : t("Enter a password to log in ({least} characters or more), or play as a guest.", { least: PASSWORD_LENGTH }));
    return;
  }
  if (choice === "signup" && password.value.length < PASSWORD_LENGTH) {
    showError("password", t("A password needs at least {least} characters.", { least: PASSWORD_LENGTH }));
    return;
  }
  for (const button of buttons) button.disabled = true;
  form.setAttribute("aria-busy", "true");
  try {
    const found = choice === "guest"
      ? await signInAsGuest(chosenName)
      : choice === "signup"
        ? await signUp(chosenName, password.value)
        : await logIn(chosenName, password.value);
    finish(found);
  } catch (error) {
    const message = sentence(error instanceof ApiError ? error.message : String(error));
    const advice = error instanceof ApiError && error.code === "name_taken"
      ? ` ${t("If it is yours, log in with its password; else pick another name.")}`
      : "";
    showError(fieldOf(error), message + advice);
  } finally {
    for (const button of buttons) button.disabled = false;
    form.removeAttribute("aria-busy");
  }
}

function finish(found) {
  const done = settle;
  settle = null;
  if (dialog.open) dialog.close();
  parts().password.value = "";
  if (done) done(found);
}

/**
 * Opens the sign-in dialog; resolves with the identity, or null when the visitor chose
 * "Just watch" (offered only with allowWatch) or closed the dialog.
 */
export function askForName({ allowWatch = false } = {}) {
  dialog ||= build();
  if (settle) settle(null); // a second ask replaces the first
  const { watch, name } = parts();
  clearErrors();
  watch.textContent = allowWatch ? t("Just watch") : t("Cancel");
  return new Promise((resolve) => {
    settle = resolve;
    if (!dialog.open) dialog.showModal();
    name.focus();
  });
}
