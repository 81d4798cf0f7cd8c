// The one file that talks to WebAssembly: it takes the core module out of the
// component, runs it in wazero, and speaks the canonical ABI for the few shapes
// the WIT uses (strings in, enums as i32, option<string>, and string, list<string>,
// result<string,string> and result<option<string>,string> out).

package raw

import (
	"context"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unicode/utf8"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// The component every host loads, copied here by scripts/test-go (or a release)
// from build/mcp-envelope.wasm: never committed.
//
//go:embed mcp-envelope.wasm
var componentBytes []byte

// Interface is the WIT interface whose exports this package calls.
const Interface = "mcp:envelope/api@0.8.0"

// Runtime is a compiled core module and a pool of its instances. The zero value
// is not usable; most callers use the process's runtime through the package's
// functions, and tests build their own with NewRuntime.
type Runtime struct {
	wazero wazero.Runtime
	module wazero.CompiledModule

	// A module instance is not goroutine-safe: each call takes one from the
	// pool and gives it back, so calls on different goroutines run in parallel
	// on different instances; at most maxIdle are kept between calls.
	mu      sync.Mutex
	idle    []*instance
	maxIdle int
}

// Options configures NewRuntime.
type Options struct {
	// Component is the component's bytes; the embedded one when nil.
	Component []byte
	// MemoryLimitPages caps each instance's linear memory (64 KiB pages); 0 is wazero's default.
	MemoryLimitPages uint32
}

type instance struct {
	module  api.Module
	memory  api.Memory
	realloc api.Function
	exports map[string]*boundExport
}

type boundExport struct {
	function api.Function
	post     api.Function
}

// NewRuntime compiles the component's core module and checks that it has every
// export of the table, with the core signature the canonical ABI gives it.
func NewRuntime(ctx context.Context, options Options) (*Runtime, error) {
	component := options.Component
	if component == nil {
		component = componentBytes
	}
	core, err := CoreModule(component)
	if err != nil {
		return nil, &LoadError{Message: fmt.Sprintf("mcp-envelope: the component cannot be read: %v", err)}
	}
	config := wazero.NewRuntimeConfig().WithCloseOnContextDone(false)
	if options.MemoryLimitPages > 0 {
		config = config.WithMemoryLimitPages(options.MemoryLimitPages)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, config)
	module, err := rt.CompileModule(ctx, core)
	if err != nil {
		rt.Close(ctx)
		return nil, &LoadError{Message: fmt.Sprintf("mcp-envelope: the component's core module does not compile: %v", err)}
	}
	if err := checkCoreExports(module); err != nil {
		rt.Close(ctx)
		return nil, &LoadError{Message: "mcp-envelope: " + err.Error()}
	}
	return &Runtime{wazero: rt, module: module, maxIdle: runtime.GOMAXPROCS(0)}, nil
}

// Close releases the runtime and every instance it holds.
func (r *Runtime) Close(ctx context.Context) error {
	r.mu.Lock()
	r.idle = nil
	r.mu.Unlock()
	return r.wazero.Close(ctx)
}

// CoreModule is the core module a component holds: a component with one core
// module and no imports, such as ours, needs nothing else to run. The binary
// is a preamble (magic, version 0x0d, layer 1), then sections, each an id byte,
// a LEB128 size and its contents; id 1 is a core module.
func CoreModule(component []byte) ([]byte, error) {
	preamble := []byte{0x00, 'a', 's', 'm', 0x0d, 0x00, 0x01, 0x00}
	if len(component) < len(preamble) || string(component[:8]) != string(preamble) {
		return nil, errors.New("not a WebAssembly component (its preamble is not \\0asm, version 0x0d, layer 1)")
	}
	var core []byte
	for at := len(preamble); at < len(component); {
		id := component[at]
		size, n := binary.Uvarint(component[at+1:])
		if n <= 0 || uint64(len(component)-at-1-n) < size {
			return nil, fmt.Errorf("section at byte %d: its size runs past the end", at)
		}
		start := at + 1 + n
		if id == 1 {
			if core != nil {
				return nil, errors.New("it holds more than one core module")
			}
			core = component[start : start+int(size)]
		}
		at = start + int(size)
	}
	if core == nil {
		return nil, errors.New("it holds no core module")
	}
	return core, nil
}

func checkCoreExports(module wazero.CompiledModule) error {
	functions := module.ExportedFunctions()
	for _, e := range Exports {
		name := Interface + "#" + e.Name
		f, ok := functions[name]
		if !ok {
			return fmt.Errorf("the component's core module lacks %s", name)
		}
		params, results := e.shape.coreSignature()
		if !sameTypes(f.ParamTypes(), params) || !sameTypes(f.ResultTypes(), results) {
			return fmt.Errorf("%s takes %v and gives %v, not %v and %v as its WIT line says",
				name, f.ParamTypes(), f.ResultTypes(), params, results)
		}
		if _, ok := functions["cabi_post_"+name]; !ok {
			return fmt.Errorf("the component's core module lacks cabi_post_%s", name)
		}
	}
	if _, ok := functions["cabi_realloc"]; !ok {
		return errors.New("the component's core module lacks cabi_realloc")
	}
	if _, ok := module.ExportedMemories()["memory"]; !ok {
		return errors.New("the component's core module exports no memory")
	}
	return nil
}

func sameTypes(a, b []api.ValueType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (r *Runtime) newInstance(ctx context.Context) (*instance, error) {
	// An empty name lets any number of instances of the module live at once.
	module, err := r.wazero.InstantiateModule(ctx, r.module, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, err
	}
	in := &instance{
		module:  module,
		memory:  module.ExportedMemory("memory"),
		realloc: module.ExportedFunction("cabi_realloc"),
		exports: make(map[string]*boundExport, len(Exports)),
	}
	for _, e := range Exports {
		name := Interface + "#" + e.Name
		in.exports[e.Name] = &boundExport{
			function: module.ExportedFunction(name),
			post:     module.ExportedFunction("cabi_post_" + name),
		}
	}
	return in, nil
}

func (r *Runtime) take(ctx context.Context) (*instance, error) {
	r.mu.Lock()
	if n := len(r.idle); n > 0 {
		in := r.idle[n-1]
		r.idle = r.idle[:n-1]
		r.mu.Unlock()
		return in, nil
	}
	r.mu.Unlock()
	return r.newInstance(ctx)
}

func (r *Runtime) give(ctx context.Context, in *instance) {
	r.mu.Lock()
	if len(r.idle) < r.maxIdle {
		r.idle = append(r.idle, in)
		in = nil
	}
	r.mu.Unlock()
	if in != nil {
		in.module.Close(ctx)
	}
}

// value is what an export gave: a text (or a list of texts), or a refusal's words.
type value struct {
	text    string
	list    []string
	none    bool // ok(none) of a result<option<string>, string>
	refused bool
}

// trapped marks a call that trapped: its instance is discarded, not pooled.
type trapped struct{ words string }

func (t *trapped) Error() string { return t.words }

// call runs one export on a pooled instance. A trap discards the instance (it
// held nothing worth keeping) and comes back as *trapped.
func (r *Runtime) call(ctx context.Context, e *Export, args []any) (value, error) {
	in, err := r.take(ctx)
	if err != nil {
		return value{}, &trapped{words: err.Error()}
	}
	got, err := in.call(ctx, e, args)
	if err != nil {
		in.module.Close(ctx)
		return value{}, &trapped{words: err.Error()}
	}
	r.give(ctx, in)
	return got, nil
}

func (in *instance) call(ctx context.Context, e *Export, args []any) (got value, err error) {
	// wazero reports a trap as an error; a host-side panic (memory read past
	// the end on a bad pointer) is one too, for the same discarded instance.
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	flat := make([]uint64, 0, 6)
	for _, arg := range args {
		switch a := arg.(type) {
		case string:
			ptr, size, err := in.writeString(ctx, a)
			if err != nil {
				return value{}, err
			}
			flat = append(flat, ptr, size)
		case *string: // option<string>: the case, then the payload (zeros for none)
			if a == nil {
				flat = append(flat, 0, 0, 0)
				continue
			}
			ptr, size, err := in.writeString(ctx, *a)
			if err != nil {
				return value{}, err
			}
			flat = append(flat, 1, ptr, size)
		case uint32: // an enum's case index
			flat = append(flat, uint64(a))
		default:
			panic(fmt.Sprintf("mcp-envelope: no canonical ABI lowering for %T", arg))
		}
	}
	bound := in.exports[e.Name]
	results, err := bound.function.Call(ctx, flat...)
	if err != nil {
		return value{}, err
	}
	area := uint32(results[0])
	got, err = in.lift(e.shape.result, area)
	if err != nil {
		return value{}, err
	}
	if _, err := bound.post.Call(ctx, uint64(area)); err != nil {
		return value{}, err
	}
	return got, nil
}

// writeString copies a text into the instance's memory as UTF-8, each byte
// that is not UTF-8 as U+FFFD (a Go string may hold any bytes; the ABI takes UTF-8).
func (in *instance) writeString(ctx context.Context, text string) (uint64, uint64, error) {
	if !utf8.ValidString(text) {
		text = ValidUTF8(text)
	}
	results, err := in.realloc.Call(ctx, 0, 0, 1, uint64(len(text)))
	if err != nil {
		return 0, 0, err
	}
	ptr := uint32(results[0])
	if !in.memory.WriteString(ptr, text) {
		return 0, 0, fmt.Errorf("cabi_realloc gave %d bytes at %d, outside the memory", len(text), ptr)
	}
	return uint64(ptr), uint64(len(text)), nil
}

// ValidUTF8 is text with each byte that is not part of a UTF-8 sequence replaced by U+FFFD.
func ValidUTF8(text string) string {
	out := make([]rune, 0, len(text))
	for _, r := range text { // ranging over a string yields U+FFFD for each bad byte
		out = append(out, r)
	}
	return string(out)
}

func (in *instance) u32(at uint32) uint32 {
	v, ok := in.memory.ReadUint32Le(at)
	if !ok {
		panic(fmt.Sprintf("a result read at %d, outside the memory", at))
	}
	return v
}

func (in *instance) byteAt(at uint32) byte {
	v, ok := in.memory.ReadByte(at)
	if !ok {
		panic(fmt.Sprintf("a result read at %d, outside the memory", at))
	}
	return v
}

// stringAt lifts a (pointer, length) pair stored at `at`, copying the bytes out.
func (in *instance) stringAt(at uint32) string {
	ptr, size := in.u32(at), in.u32(at+4)
	bytes, ok := in.memory.Read(ptr, size)
	if !ok {
		panic(fmt.Sprintf("a string of %d bytes at %d, outside the memory", size, ptr))
	}
	return string(bytes)
}

// lift reads a result from the return area. Layouts (CanonicalABI.md): a
// string or list is (pointer, length), 8 bytes; a result or option is a u8
// case then its payload at the payload's alignment, 4 here.
func (in *instance) lift(result resultShape, area uint32) (value, error) {
	switch result {
	case resultString:
		return value{text: in.stringAt(area)}, nil
	case resultList:
		ptr, count := in.u32(area), in.u32(area+4)
		list := make([]string, count)
		for i := range list {
			list[i] = in.stringAt(ptr + uint32(i)*8)
		}
		return value{list: list}, nil
	case resultStringOrError:
		return value{text: in.stringAt(area + 4), refused: in.byteAt(area) != 0}, nil
	case resultOptionOrError:
		if in.byteAt(area) != 0 {
			return value{text: in.stringAt(area + 4), refused: true}, nil
		}
		if in.byteAt(area+4) == 0 {
			return value{none: true}, nil
		}
		return value{text: in.stringAt(area + 8)}, nil
	}
	return value{}, fmt.Errorf("no lifting for result shape %d", result)
}
