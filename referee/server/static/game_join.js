// Join a card table with its room code and a name: the claimed seat's link opens this phone,
// in the language this page was shown in.
"use strict";
(function () {
  const form = document.getElementById("join-form");
  const code = new URLSearchParams(location.search).get("code");
  // a room code typed on a Persian or Arabic keyboard (۲, ٢) is the code with 2
  const latinDigits = (text) => text.replace(/[\u06f0-\u06f9\u0660-\u0669]/g,
    (d) => String(d.charCodeAt(0) & 0xf));
  if (code) form.code.value = code;
  const T = JSON.parse(document.getElementById("i18n").textContent);
  window.refereeUI.oneAtATime(form, async () => {
    const err = document.getElementById("join-error");
    err.textContent = "";
    const {r, data: out} = await window.refereeUI.postJSON("/api/games/join",
      {code: latinDigits(form.code.value.trim()), name: form.name.value.trim()});
    if (!r) { window.refereeUI.sayError(err, window.refereeUI.tr(T, "g.net_error")); return; }
    if (!r.ok || !out) { window.refereeUI.sayError(err, window.refereeErrorWords(T, out, String(r.status))); return; }
    // the seat's page in this page's language (the phone's choice), not the table's
    const link = new URL(out.link, location.href);
    link.searchParams.set("lang", document.documentElement.lang);
    location.href = link.pathname + link.search + link.hash;
  });
})();
