// The one file that talks to WebAssembly: it runs the two core modules in
// wazero, the envelope module at once and the full one on first use, and speaks
// the canonical ABI for the few shapes the WIT uses (strings in, enums as i32,
// option<string>, and string, list<string>, result<string,string> and
// result<option<string>,string> out).

package raw

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// The core modules of the two components, copied here by scripts/test-go (or
// a release) from build/envelope.core.wasm and build/full.core.wasm: never
// committed. The envelope module runs interface envelope (world envelope-only);
// the full module, world full, runs server, agent and contract.
var (
	//go:embed envelope.core.wasm
	envelopeModule []byte
	//go:embed full.core.wasm
	fullModule []byte
)

// Package and Version are the WIT package the core modules export, as their
// export names spell it: "mcp:envelope/envelope@1.0.0#render".
const (
	Package = "mcp:envelope"
	Version = "1.0.0"
)

// EmbeddedModules gives the embedded core modules' bytes, for Options; the
// caller must not change them.
func EmbeddedModules() (envelope, full []byte) { return envelopeModule, fullModule }

// Runtime runs the two core modules, each with a pool of its instances. The
// envelope module is compiled by NewRuntime; the full one when a function of
// server, agent or contract is first called, so a program that only renders
// and reads envelopes never compiles it. The zero value is not usable; most
// callers use the process's runtime through the package's functions, and
// tests build their own with NewRuntime.
type Runtime struct {
	wazero   wazero.Runtime
	maxIdle  int
	envelope *pool

	fullBytes []byte
	fullOnce  sync.Once
	full      atomic.Pointer[pool]
	fullErr   error
}

// pool is one compiled core module and its idle instances. A module instance
// is not goroutine-safe: each call takes one from the pool and gives it back,
// so calls on different goroutines run in parallel on different instances; at
// most maxIdle are kept between calls.
type pool struct {
	module  wazero.CompiledModule
	exports []*Export // the functions this module is called for

	mu      sync.Mutex
	idle    []*instance
	maxIdle int
}

// Options configures NewRuntime.
type Options struct {
	// Envelope is the core module that runs interface envelope; the embedded
	// envelope module when nil. The full module serves as well, since it has
	// every function.
	Envelope []byte
	// Full is the core module that runs server, agent and contract, compiled
	// on first use; the embedded full module when nil.
	Full []byte
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

// NewRuntime compiles the envelope module and checks that it has every function
// of interface envelope, with the core signature the canonical ABI gives it;
// the full module is compiled, and checked for every function, on first use.
func NewRuntime(ctx context.Context, options Options) (*Runtime, error) {
	envelopeBytes, fullBytes := options.Envelope, options.Full
	if envelopeBytes == nil {
		envelopeBytes = envelopeModule
	}
	if fullBytes == nil {
		fullBytes = fullModule
	}
	config := wazero.NewRuntimeConfig().WithCloseOnContextDone(false)
	if options.MemoryLimitPages > 0 {
		config = config.WithMemoryLimitPages(options.MemoryLimitPages)
	}
	r := &Runtime{wazero: wazero.NewRuntimeWithConfig(ctx, config), maxIdle: runtime.GOMAXPROCS(0), fullBytes: fullBytes}
	var onEnvelope []*Export
	for i := range Exports {
		if Exports[i].onEnvelope() {
			onEnvelope = append(onEnvelope, &Exports[i])
		}
	}
	envelope, err := r.compile(ctx, "envelope", envelopeBytes, onEnvelope)
	if err != nil {
		r.wazero.Close(ctx)
		return nil, err
	}
	r.envelope = envelope
	return r, nil
}

func (r *Runtime) compile(ctx context.Context, which string, bytes []byte, exports []*Export) (*pool, error) {
	module, err := r.wazero.CompileModule(ctx, bytes)
	if err != nil {
		return nil, &LoadError{Message: fmt.Sprintf("mcp-envelope: the %s module does not compile: %v", which, err)}
	}
	if err := checkCoreExports(module, exports); err != nil {
		return nil, &LoadError{Message: fmt.Sprintf("mcp-envelope: the %s module: %v", which, err)}
	}
	return &pool{module: module, exports: exports, maxIdle: r.maxIdle}, nil
}

// fullPool is the full module, compiled on the first call that needs it.
func (r *Runtime) fullPool(ctx context.Context) (*pool, error) {
	r.fullOnce.Do(func() {
		all := make([]*Export, len(Exports))
		for i := range Exports {
			all[i] = &Exports[i]
		}
		p, err := r.compile(ctx, "full", r.fullBytes, all)
		if err != nil {
			r.fullErr = err
			return
		}
		r.full.Store(p)
	})
	if r.fullErr != nil {
		return nil, r.fullErr
	}
	return r.full.Load(), nil
}

// FullLoaded tells whether the full module has been compiled: only a call of a
// function of server, agent or contract compiles it.
func (r *Runtime) FullLoaded() bool { return r.full.Load() != nil }

// poolFor is the module that runs an export.
func (r *Runtime) poolFor(ctx context.Context, e *Export) (*pool, error) {
	if e.onEnvelope() {
		return r.envelope, nil
	}
	return r.fullPool(ctx)
}

// Close releases the runtime and every instance it holds.
func (r *Runtime) Close(ctx context.Context) error {
	for _, p := range []*pool{r.envelope, r.full.Load()} {
		if p != nil {
			p.mu.Lock()
			p.idle = nil
			p.mu.Unlock()
		}
	}
	return r.wazero.Close(ctx)
}

func checkCoreExports(module wazero.CompiledModule, exports []*Export) error {
	functions := module.ExportedFunctions()
	for _, e := range exports {
		name := e.CoreName()
		f, ok := functions[name]
		if !ok {
			return fmt.Errorf("it lacks %s", name)
		}
		params, results := e.shape.coreSignature()
		if !sameTypes(f.ParamTypes(), params) || !sameTypes(f.ResultTypes(), results) {
			return fmt.Errorf("%s takes %v and gives %v, not %v and %v as its WIT line says",
				name, f.ParamTypes(), f.ResultTypes(), params, results)
		}
		if _, ok := functions["cabi_post_"+name]; !ok {
			return fmt.Errorf("it lacks cabi_post_%s", name)
		}
	}
	if _, ok := functions["cabi_realloc"]; !ok {
		return errors.New("it lacks cabi_realloc")
	}
	if _, ok := module.ExportedMemories()["memory"]; !ok {
		return errors.New("it exports no memory")
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

func (r *Runtime) newInstance(ctx context.Context, p *pool) (*instance, error) {
	// An empty name lets any number of instances of the module live at once.
	module, err := r.wazero.InstantiateModule(ctx, p.module, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, err
	}
	in := &instance{
		module:  module,
		memory:  module.ExportedMemory("memory"),
		realloc: module.ExportedFunction("cabi_realloc"),
		exports: make(map[string]*boundExport, len(p.exports)),
	}
	for _, e := range p.exports {
		name := e.CoreName()
		in.exports[e.Name] = &boundExport{
			function: module.ExportedFunction(name),
			post:     module.ExportedFunction("cabi_post_" + name),
		}
	}
	return in, nil
}

func (r *Runtime) take(ctx context.Context, p *pool) (*instance, error) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		in := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return in, nil
	}
	p.mu.Unlock()
	return r.newInstance(ctx, p)
}

func (p *pool) give(ctx context.Context, in *instance) {
	p.mu.Lock()
	if len(p.idle) < p.maxIdle {
		p.idle = append(p.idle, in)
		in = nil
	}
	p.mu.Unlock()
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

// call runs one export on a pooled instance of the module that has it. A trap
// discards the instance (it held nothing worth keeping) and comes back as
// *trapped; a full module that does not load, as its *LoadError.
func (r *Runtime) call(ctx context.Context, e *Export, args []any) (value, error) {
	p, err := r.poolFor(ctx, e)
	if err != nil {
		return value{}, err
	}
	return r.callOn(ctx, p, e, args)
}

func (r *Runtime) callOn(ctx context.Context, p *pool, e *Export, args []any) (value, error) {
	in, err := r.take(ctx, p)
	if err != nil {
		return value{}, &trapped{words: err.Error()}
	}
	got, err := in.call(ctx, e, args)
	if err != nil {
		in.module.Close(ctx)
		return value{}, &trapped{words: err.Error()}
	}
	p.give(ctx, in)
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
