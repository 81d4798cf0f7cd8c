package envelope

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mcp-envelope/mcp-envelope/bindings/go/raw"
)

// Ledger is the repeat ledger of one server session (docs/repeat-ledger.md):
// it remembers each tool's last failure, so an identical retry gets the
// core's short "nothing has changed" envelope and a run of them one telling
// the model to stop. The core decides every step and words every envelope;
// the Ledger only keeps the streak records it hands back. It is safe for
// concurrent use; make one per session, since sessions are different
// conversations.
type Ledger struct {
	stopAfter uint32
	mu        sync.Mutex
	streaks   map[string]string
}

// NewLedger is a ledger that answers stopAfter identical failures (the
// first in full, the others shortened) before the one telling the model to
// stop; the core reads 0 as 1.
func NewLedger(stopAfter uint32) *Ledger {
	return &Ledger{stopAfter: stopAfter, streaks: map[string]string{}}
}

// Observe runs the ledger's step on a result tool's handler produced
// (a CallToolResult's JSON), with the call's arguments (nil when it had none):
// the result to send instead of it, or nil to send it as it is.
func (l *Ledger) Observe(tool string, result json.RawMessage, arguments json.RawMessage) (json.RawMessage, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	request := map[string]any{"result": result, "stopAfter": l.stopAfter}
	if len(arguments) > 0 {
		request["arguments"] = arguments
	}
	if streak, ok := l.streaks[tool]; ok {
		request["streak"] = streak
	}
	text, err := json.Marshal(request)
	if err != nil {
		return nil, fmt.Errorf("mcp-envelope: the ledger's request: %w", err)
	}
	answerText, err := raw.LedgerObserve(string(text))
	if err != nil {
		return nil, err
	}
	var answer struct {
		Result json.RawMessage `json:"result"`
		// Absent: keep the record; null: the streak ends; a string: the new record.
		Streak json.RawMessage `json:"streak"`
	}
	if err := json.Unmarshal([]byte(answerText), &answer); err != nil {
		return nil, err
	}
	switch {
	case string(answer.Streak) == "null":
		delete(l.streaks, tool)
	case len(answer.Streak) > 0:
		var record string
		if err := json.Unmarshal(answer.Streak, &record); err != nil {
			return nil, fmt.Errorf("mcp-envelope: the ledger's streak record: %w", err)
		}
		l.streaks[tool] = record
	}
	if len(answer.Result) == 0 || string(answer.Result) == "null" {
		return nil, nil
	}
	return answer.Result, nil
}
