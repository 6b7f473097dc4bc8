// Building elements: one helper for every page's scripts. Text is always set as text,
// never as HTML (names and chat come from other people).

export function element(tag, className = "", text = "") {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null && text !== "") node.textContent = String(text);
  return node;
}
