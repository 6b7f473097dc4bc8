// Copying a link to share (an invite): the clipboard where the page may use it, else the
// browser's copy of the selected text (plain http on a LAN has no clipboard API).

import { t } from "./i18n.js";

/** Copies the text of `input` and says so in `status` for a moment. */
export async function copyText(input, status) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand("copy");
  }
  status.textContent = t("Link copied");
  setTimeout(() => { status.textContent = ""; }, 2500);
}
