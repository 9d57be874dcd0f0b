// Server errors in the page's language: English pages get the server's own words, the others
// the sentence of the error's kind (messages "err.kind.<Error>"), never English on a Persian,
// Hebrew or Arabic page.
"use strict";
window.refereeErrorWords = function (T, data, fallback) {
  const lang = document.documentElement.lang;
  const kind = T["err.kind." + (data && data.error)];
  // a validator's wording (body.players.0: ...) helps nobody at a table: its plain sentence
  if (kind && (lang !== "en" || data.error === "RequestValidationError")) return kind;
  const detail = data && typeof data.detail === "string" ? data.detail : "";
  return detail || kind || fallback;
};
