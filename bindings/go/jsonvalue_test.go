package envelope_test

// A JSON value for the vector runner that keeps what encoding/json loses: key
// order, numbers as written, and any depth (some vectors nest 100,000 levels,
// past encoding/json's 10,000). Written compactly as serde_json and
// JSON.stringify write it, the text the component reads.

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

type jsonKind int

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

type member struct {
	key   string
	value *jv
}

type jv struct {
	kind    jsonKind
	text    string // a number as written, a string's value, "true"/"false"
	items   []*jv
	members []member
}

func (v *jv) get(key string) *jv {
	if v == nil || v.kind != jsonObject {
		return nil
	}
	for _, m := range v.members {
		if m.key == key {
			return m.value
		}
	}
	return nil
}

func (v *jv) has(key string) bool { return v.get(key) != nil }

func (v *jv) str() string {
	if v == nil || v.kind != jsonString {
		panic(fmt.Sprintf("not a string: %v", v))
	}
	return v.text
}

func (v *jv) isNull() bool { return v == nil || v.kind == jsonNull }

func (v *jv) compact() string {
	var b strings.Builder
	v.write(&b)
	return b.String()
}

func (v *jv) String() string { return v.compact() }

func (v *jv) write(b *strings.Builder) {
	switch v.kind {
	case jsonNull:
		b.WriteString("null")
	case jsonBool, jsonNumber:
		b.WriteString(v.text)
	case jsonString:
		writeString(b, v.text)
	case jsonArray:
		b.WriteByte('[')
		for i, item := range v.items {
			if i > 0 {
				b.WriteByte(',')
			}
			item.write(b)
		}
		b.WriteByte(']')
	case jsonObject:
		b.WriteByte('{')
		for i, m := range v.members {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, m.key)
			b.WriteByte(':')
			m.value.write(b)
		}
		b.WriteByte('}')
	}
}

func writeString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

func parseJSON(text string) (*jv, error) {
	p := &jsonParser{s: text}
	p.space()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("trailing text at byte %d", p.i)
	}
	return v, nil
}

type jsonParser struct {
	s string
	i int
}

func (p *jsonParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *jsonParser) fail(what string) error { return fmt.Errorf("%s at byte %d", what, p.i) }

func (p *jsonParser) value() (*jv, error) {
	if p.i >= len(p.s) {
		return nil, p.fail("unexpected end")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		p.i++
		v := &jv{kind: jsonObject}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return v, nil
		}
		for {
			p.space()
			key, err := p.str()
			if err != nil {
				return nil, err
			}
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return nil, p.fail("expected ':'")
			}
			p.i++
			p.space()
			item, err := p.value()
			if err != nil {
				return nil, err
			}
			v.members = append(v.members, member{key, item})
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				return v, nil
			}
			return nil, p.fail("expected ',' or '}'")
		}
	case c == '[':
		p.i++
		v := &jv{kind: jsonArray, items: []*jv{}}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return v, nil
		}
		for {
			p.space()
			item, err := p.value()
			if err != nil {
				return nil, err
			}
			v.items = append(v.items, item)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				return v, nil
			}
			return nil, p.fail("expected ',' or ']'")
		}
	case c == '"':
		s, err := p.str()
		return &jv{kind: jsonString, text: s}, err
	case strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return &jv{kind: jsonBool, text: "true"}, nil
	case strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return &jv{kind: jsonBool, text: "false"}, nil
	case strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return &jv{kind: jsonNull}, nil
	default:
		start := p.i
		for p.i < len(p.s) && strings.IndexByte("+-0123456789.eE", p.s[p.i]) >= 0 {
			p.i++
		}
		if start == p.i {
			return nil, p.fail("unexpected character")
		}
		return &jv{kind: jsonNumber, text: p.s[start:p.i]}, nil
	}
}

// str reads a string; a lone surrogate escape becomes U+FFFD, as the core reads it.
func (p *jsonParser) str() (string, error) {
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return "", p.fail("expected a string")
	}
	p.i++
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			return "", p.fail("unterminated string")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c == '\\':
			if p.i+1 >= len(p.s) {
				return "", p.fail("unterminated escape")
			}
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, err := p.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) {
					if r < 0xdc00 && strings.HasPrefix(p.s[p.i:], `\u`) {
						save := p.i
						p.i += 2
						low, err := p.hex4()
						if err == nil && low >= 0xdc00 && low <= 0xdfff {
							r = utf16.DecodeRune(r, low)
						} else {
							p.i = save
							r = utf8.RuneError
						}
					} else {
						r = utf8.RuneError
					}
				}
				b.WriteRune(r)
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
			p.i++
		}
	}
}

func (p *jsonParser) hex4() (rune, error) {
	if p.i+4 > len(p.s) {
		return 0, p.fail("short \\u escape")
	}
	n, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
	if err != nil {
		return 0, p.fail("bad \\u escape")
	}
	p.i += 4
	return rune(n), nil
}

// expand applies the vectors' `$repeat` and `$concat` (vectors/README.md, "Expansions").
func expand(v *jv) *jv {
	switch v.kind {
	case jsonObject:
		if item := v.get("$repeat"); item != nil {
			count, _ := strconv.Atoi(v.get("count").text)
			item = expand(item)
			if item.kind == jsonString {
				return &jv{kind: jsonString, text: strings.Repeat(item.text, count)}
			}
			out := &jv{kind: jsonArray, items: make([]*jv, 0, len(item.items)*count)}
			for range count {
				out.items = append(out.items, item.items...)
			}
			return out
		}
		if parts := v.get("$concat"); parts != nil {
			var b strings.Builder
			for _, part := range parts.items {
				b.WriteString(expand(part).text)
			}
			return &jv{kind: jsonString, text: b.String()}
		}
		out := &jv{kind: jsonObject, members: make([]member, len(v.members))}
		for i, m := range v.members {
			out.members[i] = member{m.key, expand(m.value)}
		}
		return out
	case jsonArray:
		out := &jv{kind: jsonArray, items: make([]*jv, len(v.items))}
		for i, item := range v.items {
			out.items[i] = expand(item)
		}
		return out
	}
	return v
}
