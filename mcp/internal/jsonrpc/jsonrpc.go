// Package jsonrpc is the JSON-RPC 2.0 wire codec used by package mcp.
//
// It only decodes and classifies single messages; batches are not part of
// any MCP version the server speaks after 2025-03-26 and are rejected as
// invalid requests. Transports and dispatch live in package mcp.
package jsonrpc

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
)

// Standard JSON-RPC and MCP error codes.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603

	// CodeResourceNotFound is the legacy (2025-11-25 and earlier) MCP code
	// for an unknown resource; 2026-07-28 uses CodeInvalidParams instead.
	CodeResourceNotFound = -32002

	// 2026-07-28 codes, in the range the MCP spec reserves for itself.
	CodeHeaderMismatch             = -32020
	CodeMissingClientCapability    = -32021
	CodeUnsupportedProtocolVersion = -32022
)

// Error is a JSON-RPC error object. It implements error so that handlers
// can return it to choose the exact code the client sees.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message) }

// Message is any single JSON-RPC message: a request (Method and ID), a
// notification (Method, no ID) or a response (ID and Result or Error).
type Message struct {
	ID     json.RawMessage // nil when absent; never JSON null after Decode
	Method string
	Params json.RawMessage
	Result json.RawMessage
	Error  *Error
}

// IsNotification reports whether m is a notification (no id, so no reply).
func (m *Message) IsNotification() bool { return m.Method != "" && m.ID == nil }

// IsRequest reports whether m is a request that expects a response.
func (m *Message) IsRequest() bool { return m.Method != "" && m.ID != nil }

// IsResponse reports whether m answers an earlier request.
func (m *Message) IsResponse() bool { return m.Method == "" }

// wire is the union of all message fields as they appear in JSON.
type wire struct {
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// Decode parses one message. Its error is an *Error with CodeParseError for
// text that is not JSON, or CodeInvalidRequest for JSON that is not a
// JSON-RPC 2.0 message. When the id could be read it is returned alongside
// the error, so the error response can echo it.
func Decode(data []byte) (*Message, json.RawMessage, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, nil, &Error{Code: CodeParseError, Message: "parse error: empty message"}
	}
	if serr, dupID := checkStrict(data); serr != nil {
		var id json.RawMessage
		if serr.Code == CodeInvalidRequest && !dupID {
			id = peekID(data)
		}
		return nil, id, serr
	}
	if data[0] != '{' {
		return nil, nil, &Error{Code: CodeInvalidRequest, Message: "invalid request: expected a single JSON object (batches are not supported)"}
	}
	var w wire
	if err := Unmarshal(data, &w); err != nil {
		return nil, peekID(data), &Error{Code: CodeInvalidRequest, Message: "invalid request: " + err.Error()}
	}
	id, idErr := checkID(w.ID)
	if idErr != nil {
		return nil, nil, idErr
	}
	invalid := func(msg string) (*Message, json.RawMessage, error) {
		return nil, id, &Error{Code: CodeInvalidRequest, Message: "invalid request: " + msg}
	}
	if w.JSONRPC == nil || *w.JSONRPC != "2.0" {
		return invalid(`"jsonrpc" must be "2.0"`)
	}
	m := &Message{ID: id}
	if w.Method != nil {
		if w.ID != nil && id == nil {
			// JSON-RPC allows a null id only in responses to unreadable
			// requests; MCP forbids it in requests. Treating it as a
			// notification would leave the client waiting forever.
			return invalid(`"id" must be a string or a number, not null (omit it to send a notification)`)
		}
		if *w.Method == "" {
			return invalid(`"method" must be a non-empty string`)
		}
		if w.Result != nil || w.Error != nil {
			return invalid("a request cannot carry result or error")
		}
		if p := bytes.TrimSpace(w.Params); len(p) > 0 && !isNull(p) && p[0] != '{' && p[0] != '[' {
			return invalid(`"params" must be an object or array`)
		}
		m.Method = *w.Method
		if !isNull(w.Params) {
			m.Params = w.Params
		}
		return m, id, nil
	}
	if id == nil {
		return invalid(`missing "method"`)
	}
	hasResult, hasError := w.Result != nil, w.Error != nil && !isNull(w.Error)
	if !hasResult && !hasError {
		return invalid(`missing "method" (member names are case-sensitive)`)
	}
	if hasResult == hasError {
		return invalid("a response needs exactly one of result and error")
	}
	if hasError {
		var e Error
		if err := Unmarshal(w.Error, &e); err != nil {
			return invalid("malformed error object")
		}
		m.Error = &e
	} else {
		m.Result = w.Result
	}
	return m, id, nil
}

// checkID accepts a string or number id; absent ids (and an explicit null,
// which only responses to unreadable requests use) decode as nil.
func checkID(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || isNull(raw) {
		return nil, nil
	}
	switch raw[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return raw, nil
	}
	return nil, &Error{Code: CodeInvalidRequest, Message: `invalid request: "id" must be a string or a number`}
}

// peekID returns the top-level id of a message that failed a later check,
// so its error response can still name it; nil when it cannot be read.
func peekID(data []byte) json.RawMessage {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil
	}
	for dec.PeekKind() == '"' {
		name, err := dec.ReadToken()
		if err != nil {
			return nil
		}
		if name.String() != "id" {
			if dec.SkipValue() != nil {
				return nil
			}
			continue
		}
		v, err := dec.ReadValue()
		if err != nil {
			return nil
		}
		id, err := checkID(json.RawMessage(bytes.Clone(v)))
		if err != nil {
			return nil
		}
		return id
	}
	return nil
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// response is the wire form of a response; ID is always present.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// EncodeResult encodes a success response. A nil id is written as null.
func EncodeResult(id json.RawMessage, result any) ([]byte, error) {
	if result == nil {
		result = struct{}{}
	}
	return json.Marshal(response{JSONRPC: "2.0", ID: orNull(id), Result: result})
}

// EncodeError encodes an error response. A nil id is written as null.
func EncodeError(id json.RawMessage, e *Error) []byte {
	b, err := json.Marshal(response{JSONRPC: "2.0", ID: orNull(id), Error: e})
	if err != nil { // only Data can fail to marshal; drop it
		b, _ = json.Marshal(response{JSONRPC: "2.0", ID: orNull(id), Error: &Error{Code: e.Code, Message: e.Message}})
	}
	return b
}

// request is the wire form of an outgoing request or notification.
type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  any             `json:"params,omitempty"`
}

// EncodeRequest encodes a request; with a nil id it is a notification.
func EncodeRequest(id json.RawMessage, method string, params any) ([]byte, error) {
	return json.Marshal(request{JSONRPC: "2.0", ID: id, Method: method, Params: params})
}

func orNull(id json.RawMessage) json.RawMessage {
	if id == nil {
		return json.RawMessage("null")
	}
	return id
}
