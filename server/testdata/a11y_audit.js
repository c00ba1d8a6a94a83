(() => {
  // The dashboard's accessibility audit; the rules are named in
  // dashboard_browser_test.go (a11yAudit) and in the README.
  const out = [];
  const visible = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  const named = (el) => {
    const label = (el.getAttribute("aria-label") || "").trim();
    if (label) return label;
    const ids = (el.getAttribute("aria-labelledby") || "").split(/\s+/).filter(Boolean);
    return ids.map((id) => (document.getElementById(id) || {}).textContent || "").join(" ").trim();
  };
  for (const el of document.querySelectorAll("input, select, textarea")) {
    if (el.type === "hidden") continue;
    const byLabel = el.labels && [...el.labels].some((l) => l.textContent.trim());
    if (!byLabel && !named(el)) out.push("label: " + el.outerHTML.slice(0, 100));
  }
  const h1s = document.querySelectorAll("h1");
  if (h1s.length !== 1) out.push("single-h1: " + h1s.length + " h1 elements");
  let prev = 0;
  for (const h of document.querySelectorAll("h1, h2, h3, h4, h5, h6")) {
    const level = Number(h.tagName[1]);
    if (prev === 0 && level !== 1) out.push("heading-order: the first heading is " + h.tagName);
    if (prev !== 0 && level > prev + 1) out.push("heading-order: " + h.tagName + " after h" + prev + ": " + h.textContent.trim());
    prev = level;
  }
  for (const img of document.querySelectorAll("img")) if (!img.hasAttribute("alt")) out.push("image-alt: " + img.src);
  for (const svg of document.querySelectorAll("svg[role=img]")) if (!named(svg)) out.push("image-alt: an svg with role=img has no name");
  for (const b of document.querySelectorAll("button, input[type=submit], input[type=button], [role=button]")) {
    if (b.hidden) continue;
    if (!(b.textContent.trim() || named(b) || b.value)) out.push("button-name: " + b.outerHTML.slice(0, 100));
  }
  for (const a of document.querySelectorAll("a[href]")) if (!(a.textContent.trim() || named(a))) out.push("link-name: " + a.href);
  if (!document.documentElement.lang) out.push("html-lang: no lang on <html>");
  if (!document.title.trim()) out.push("document-title: empty");
  const ids = new Set();
  for (const el of document.querySelectorAll("[id]")) {
    if (ids.has(el.id)) out.push("duplicate-id: " + el.id);
    ids.add(el.id);
  }
  // color-contrast (WCAG 2.x SC 1.4.3).
  const parse = (s) => {
    const m = /rgba?\(([^)]+)\)/.exec(s || "");
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return { rgb: p.slice(0, 3), a: p.length > 3 ? p[3] : 1 };
  };
  const luminance = (rgb) => {
    const [r, g, b] = rgb.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) return c.rgb;
    }
    return [255, 255, 255];
  };
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.tagName === "title" || el.tagName === "OPTION" || el.tagName === "PROGRESS") continue;
    const inSVG = !!el.closest("svg");
    if (!inSVG && !visible(el)) continue;
    const cs = getComputedStyle(el);
    const fg = parse(inSVG ? cs.fill : cs.color);
    if (!fg) continue;
    const bg = background(inSVG ? el.closest("svg") : el);
    const [hi, lo] = [luminance(fg.rgb), luminance(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(cs.fontSize);
    const large = size >= 24 || (Number(cs.fontWeight) >= 700 && size >= 18.66);
    const need = large ? 3 : 4.5;
    const key = fg.rgb + "/" + bg + "/" + need;
    if (ratio < need && !seen.has(key)) {
      seen.add(key);
      out.push("color-contrast: " + ratio.toFixed(2) + ":1 < " + need + ":1 for \"" + text.slice(0, 40) + "\" (rgb(" + fg.rgb + ") on rgb(" + bg + "))");
    }
  }
  return out;
})()
