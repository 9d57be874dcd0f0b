// The card games' things in the page's language: cards, colours, box places, road spaces and
// moves. The words are messages of i18n/<lang>.json (never code); an action still travels in
// the engine's notation, only what a person reads is words. tests/server/test_server_cardwords.py
// checks that every card, colour, place and space an engine can produce has its message.
"use strict";
window.refereeCardWords = function (T, game, spaces) {
  const tr = (key, vars) => window.refereeUI.tr(T, key, vars);
  const SEP = window.refereeUI.sep(T);
  const has = (key) => T[key] !== undefined;
  const digits = window.refereeUI.digits;  // Persian pages: ۰-۹
  const COLOURS = "RGBY";

  // "+3" reads left to right inside right-to-left words too (else it shows as "3+")
  // (one already inside an isolate stays as it is)
  const signed = (text) => text.replace(/(?<!\u2066)[+][0-9\u06f0-\u06f9]+/g,
    (m) => "\u2066" + m + "\u2069");
  // TAKI: "R5" red 5, "B+2", "GSTOP", "KING", "COLOR"; Tukki Tukki: "7", "P"; Tokaido: "sushi"
  const card = (code) => signed(cardName(code));
  function cardName(code) {
    if (code === null || code === undefined) return "";
    if (game === "tukki") return code === "P" ? tr("g.tukki.parrot") : digits(code);
    if (game === "tokaido") return has("g.tk." + code) ? tr("g.tk." + code) : code;
    if (has("g.card." + code)) return tr("g.card." + code);
    const rank = code.slice(1);
    if (COLOURS.includes(code[0]) && rank)
      return tr("g.card_of", {colour: colour(code[0]), rank: rankRaw(rank)});
    return code;
  }
  const rankRaw = (rank) => has("g.rank." + rank) ? tr("g.rank." + rank) : digits(rank);
  const rankWords = (rank) => signed(rankRaw(rank));
  const colour = (c) => tr("g.color." + c);
  // Tukki Tukki's box places: a1-a4 the top row, b1-b4 the bottom row
  const place = (p) => /^[ab][1-4]$/.test(p) ? tr("g.tukki.row." + p[0], {n: +p[1]}) : p;
  const spaceKind = (kind) => (kind && has("g.space." + kind)) ? tr("g.space." + kind) : (kind || "");
  const space = (i) => tr("g.road_space", {n: i, kind: spaceKind((spaces() || [])[i])});
  const character = (code) => has("g.char." + code) ? tr("g.char." + code) : code;
  // Tokaido: what a character's power does, one short sentence of the rules ("" if none)
  const power = (code) => has("tokaido.power." + code) ? tr("tokaido.power." + code) : "";
  // a move the game made on its own (Tokaido's walk from an inn: "left the inn for space
  // 14: temple"), which no one chose
  const walked = (text) => /^move [0-9]+$/.test(text) && has("tokaido.walk_on")
    ? tr("tokaido.walk_on", {x: space(+text.slice(5))}) : action(text);
  // a traveller the inn's meals passed over, and why, from the engine ("could afford no meal
  // at the inn", "found no meal left at the inn"): no decision, so no move of its own
  const passed = (why) => has("tokaido.passed." + why) ? tr("tokaido.passed." + why) : why;
  // a road space that did nothing for the traveller who stopped there, and why, from the
  // engine ("stopped at the souvenir shop but could afford nothing"): no decision either
  const stopped = (i, why) => {
    const key = "tokaido.stopped." + (spaces() || [])[i] + "." + why;
    return has(key) ? tr(key) : tr("g.verb.move", {x: space(i)}) + SEP + why;
  };
  // Tokaido's cards of a kind with how many ("sushi ×3"), in the page's digits
  const counted = (code, n) => card(code) + (n > 1 ? " ×" + window.refereeUI.num(n) : "");

  // an action in words: "played red 5", or as a button "Play red 5"
  function action(text, imperative) {
    const parts = text.split(" ");
    const verb = parts[0];
    let rest = parts.slice(1);
    const last = game === "taki" && rest[rest.length - 1] === "last";
    if (last) rest = rest.slice(0, -1);
    const pre = imperative ? "g.do." : "g.verb.";
    let said;
    if (game === "taki" && verb === "play" && rest[0] === "COLOR" && rest[1])
      said = tr(pre + "play", {x: tr("g.color_to", {c: colour(rest[1])})});
    else if (game === "tukki" && verb === "place" && rest[1] === "land")
      said = tr(pre + "place_land", {x: place(rest[0]), y: place(rest[2])});
    else {
      let x = rest.join(" ");
      if (verb === "play") x = card(x);
      else if (verb === "move") x = space(+x);
      else if (verb === "reveal" || verb === "place") x = place(x);
      else if (verb === "take" && game === "tukki") x = has("g.thing." + x) ? tr("g.thing." + x) : x;
      else if (verb === "take") x = card(x);
      // the message's own "+3" too ("Take the +3" read "Take the 3+" on a Hebrew page)
      said = has(pre + verb) ? signed(tr(pre + verb, {x: x})) : text;
    }
    return last ? said + SEP + tr("g.last_card") : said;
  }
  // a TAKI card's face: its number, or an action card's sign with its name in words below
  // (TAKI and Super TAKI: the name alone); its colour R G B Y, or X for the colourless cards
  const SIGN = {"DIR": "⇄", "STOP": "⛔", "PLUS": "+", "KING": "♛", "COLOR": "◐", "BREAKER": "✂"};
  const takiColour = (code) => (COLOURS.includes(code[0]) && code.length > 1 &&
    !has("g.card." + code)) ? code[0] : "X";  // BREAKER is no blue card
  function takiFace(code, el) {
    const colourless = takiColour(code) === "X";
    const rank = colourless ? code : code.slice(1);
    if (/^[+]?[0-9]+$/.test(rank)) return [el("span", {class: "num", dir: "ltr"}, digits(rank))];
    const label = colourless ? card(code) : rankWords(rank);
    return SIGN[rank] ? [el("span", {class: "sign"}, SIGN[rank]), el("span", {class: "nm"}, label)]
      : [el("span", {class: "nm big-nm"}, label)];
  }
  return {card: card, rank: rankWords, signed: signed, colour: colour, place: place, space: space,
          spaceKind: spaceKind, character: character, power: power, action: action,
          walked: walked, passed: passed, stopped: stopped, counted: counted,
          takiColour: takiColour, takiFace: takiFace};
};
