// The language menu of every page (a <select id="language">): the languages the room
// speaks, each named in itself; a choice is remembered in this browser and the page
// reloads to speak it (the table page says hello again in it).

import { chooseLanguage, lang, languages } from "./i18n.js";

const menu = document.querySelector("#language");
if (menu) {
  menu.replaceChildren(...languages.map((each) => {
    const option = document.createElement("option");
    option.value = each.lang;
    option.lang = each.lang;
    option.textContent = each.name;
    return option;
  }));
  menu.value = lang;
  menu.addEventListener("change", () => {
    if (menu.value === lang) return;
    chooseLanguage(menu.value);
    location.reload();
  });
}
