package editor

// The JavaScript the steps evaluate in the page, each a function called
// with JSON arguments (see call). They run in the page's main world.

// probeJS reports on the first element matching sel (the body when sel is
// empty): whether it exists, how many match, whether it is visible (a
// non-empty box, and not hidden by display, visibility or
// content-visibility), and, when needle is not null, whether its
// innerText contains needle, white space collapsed, with the start of
// that text.
const probeJS = `(sel, needle) => {
	const el = sel ? document.querySelector(sel) : (document.body || document.documentElement);
	const out = {found: false, count: 0, visible: false, contains: false, text: ""};
	if (!el) return out;
	out.found = true;
	out.count = sel ? document.querySelectorAll(sel).length : 1;
	const r = el.getBoundingClientRect();
	out.visible = r.width > 0 && r.height > 0 && (el.checkVisibility
		? el.checkVisibility({visibilityProperty: true})
		: getComputedStyle(el).visibility !== "hidden");
	if (needle !== null) {
		const norm = s => String(s).replace(/\s+/g, " ").trim();
		const text = norm(el.innerText ?? el.textContent ?? "");
		out.contains = text.includes(norm(needle));
		out.text = text.length > 300 ? text.slice(0, 300) + "…" : text;
	}
	return out;
}`

// clickPointJS scrolls the element into view and returns the centre of
// its box in viewport coordinates, or null.
const clickPointJS = `(sel) => {
	const el = document.querySelector(sel);
	if (!el) return null;
	el.scrollIntoView({block: "center", inline: "center", behavior: "instant"});
	const r = el.getBoundingClientRect();
	return {x: r.left + r.width / 2, y: r.top + r.height / 2};
}`

// focusJS gives the keyboard focus to the element, or to its first
// focusable descendant (a wrapper around an editor's textarea), unless it
// already holds it; a newly focused field gets its caret at the end. It
// returns "" or why it could not.
const focusJS = `(sel) => {
	const el = document.querySelector(sel);
	if (!el) return "matches no element";
	const holds = t => { const a = document.activeElement; return a === t || (a && t.contains(a)); };
	if (holds(el)) return "";
	let t = el;
	t.focus();
	if (!holds(el)) {
		t = el.querySelector('textarea, input:not([type=hidden]), select, [contenteditable]:not([contenteditable=false]), [tabindex]');
		if (t) t.focus();
		if (!t || !holds(el)) return "cannot take the keyboard focus (it is not an input, a textarea, a contenteditable or focusable)";
	}
	if (typeof t.value === "string" && typeof t.setSelectionRange === "function") {
		try { t.setSelectionRange(t.value.length, t.value.length); } catch (e) {}
	} else if (t.isContentEditable) {
		const range = document.createRange();
		range.selectNodeContents(t);
		range.collapse(false);
		const s = getSelection();
		s.removeAllRanges();
		s.addRange(range);
	}
	return "";
}`

// selectorErrorsJS returns, for each selector, "" or why it is not valid
// CSS ("" selectors are fine: the step takes none).
const selectorErrorsJS = `(sels) => sels.map(s => {
	if (!s) return "";
	try { document.createDocumentFragment().querySelector(s); return ""; }
	catch (e) { return String(e && e.message || e); }
})`
