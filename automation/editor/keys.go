package editor

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// keyPress is one parsed Step.Key: the key's DOM data and the modifiers
// held while it is pressed.
type keyPress struct {
	key       string // KeyboardEvent.key
	code      string // KeyboardEvent.code
	keyCode   int64  // the virtual key code (KeyboardEvent.keyCode)
	text      string // what the key types; empty for a shortcut or a non-printing key
	modifiers int64  // input.Modifier bits
}

// modifierNames maps the modifier names of a key spec (lower case) to
// their bits.
var modifierNames = map[string]int64{
	"alt": int64(kb.ModifierAlt), "option": int64(kb.ModifierAlt),
	"control": int64(kb.ModifierCtrl), "ctrl": int64(kb.ModifierCtrl),
	"meta": int64(kb.ModifierMeta), "cmd": int64(kb.ModifierMeta), "command": int64(kb.ModifierMeta),
	"shift": int64(kb.ModifierShift),
}

// namedKeys maps key names, lower case, to their DOM data: every key of
// chromedp's table whose key value is a name (Enter, ArrowDown, F5), and a
// few aliases.
var namedKeys = buildNamedKeys()

func buildNamedKeys() map[string]*kb.Key {
	runes := make([]rune, 0, len(kb.Keys))
	for r := range kb.Keys {
		runes = append(runes, r)
	}
	slices.Sort(runes) // a deterministic choice between keys of the same name
	named := make(map[string]*kb.Key)
	for _, r := range runes {
		k := kb.Keys[r]
		if utf8.RuneCountInString(k.Key) < 2 {
			continue // a character: looked up as one
		}
		name := strings.ToLower(k.Key)
		if prev, ok := named[name]; !ok || (prev.Code != k.Key && k.Code == k.Key) {
			named[name] = k // prefer the main key (Enter) over a variant (NumpadEnter)
		}
	}
	for alias, r := range map[string]rune{"space": ' ', "esc": '\u001b', "return": '\r'} {
		named[alias] = kb.Keys[r]
	}
	return named
}

// parseKey parses a key spec: a key name or one character, after
// modifiers joined with "+" ("Control+Shift+ArrowDown", "Control++").
func parseKey(spec string) (keyPress, error) {
	var kp keyPress
	if spec == "" {
		return kp, fmt.Errorf("is required")
	}
	var mods []string
	last := spec
	switch {
	case spec == "+":
	case strings.HasSuffix(spec, "++"): // the key itself is "+"
		mods, last = strings.Split(spec[:len(spec)-2], "+"), "+"
	default:
		parts := strings.Split(spec, "+")
		mods, last = parts[:len(parts)-1], parts[len(parts)-1]
		if last == "" {
			return kp, fmt.Errorf("%q names no key after its modifiers", spec)
		}
	}
	for _, m := range mods {
		bit, ok := modifierNames[strings.ToLower(m)]
		if !ok {
			return kp, fmt.Errorf("%q is not a modifier (Control, Shift, Alt, Meta)", m)
		}
		kp.modifiers |= bit
	}
	k, err := lookupKey(last, kp.modifiers)
	if err != nil {
		return kp, err
	}
	kp.key, kp.code, kp.keyCode = k.Key, k.Code, k.Windows
	if k.Shift {
		kp.modifiers |= int64(kb.ModifierShift) // "!" is Shift+Digit1
	}
	shortcut := kp.modifiers&^int64(kb.ModifierShift) != 0
	if k.Print && !shortcut {
		kp.text = k.Text
	}
	return kp, nil
}

// lookupKey finds a key by name or character; Shift with a lower-case
// letter is the upper-case letter.
func lookupKey(name string, modifiers int64) (*kb.Key, error) {
	if utf8.RuneCountInString(name) == 1 {
		r, _ := utf8.DecodeRuneInString(name)
		if modifiers&int64(kb.ModifierShift) != 0 && unicode.IsLower(r) {
			r = unicode.ToUpper(r)
		}
		if k, ok := kb.Keys[r]; ok {
			return k, nil
		}
		if !unicode.IsPrint(r) {
			return nil, fmt.Errorf("%q is not a printable character or a key name", name)
		}
		return &kb.Key{Key: string(r), Text: string(r), Unmodified: string(r), Print: true}, nil
	}
	if k, ok := namedKeys[strings.ToLower(name)]; ok {
		return k, nil
	}
	return nil, fmt.Errorf("%q is not a key name (Enter, Tab, Escape, Backspace, Delete, ArrowDown, Home, End, PageUp, F1, Space, ...) or one character", name)
}

// events are the key events of one press, as a keyboard sends them: a key
// down that types the key's text, if any, then a key up.
func (kp keyPress) events() []input.DispatchKeyEventParams {
	down := input.DispatchKeyEventParams{
		Type: input.DispatchKeyEventTypeRawKeyDown, Modifiers: kp.modifiers,
		Key: kp.key, Code: kp.code,
		WindowsVirtualKeyCode: kp.keyCode, NativeVirtualKeyCode: kp.keyCode,
	}
	if kp.text != "" {
		down.Type, down.Text, down.UnmodifiedText = input.DispatchKeyEventTypeKeyDown, kp.text, kp.text
	}
	up := down
	up.Type, up.Text, up.UnmodifiedText = input.DispatchKeyEventTypeKeyUp, "", ""
	return []input.DispatchKeyEventParams{down, up}
}
