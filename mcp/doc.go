// Package mcp is a Model Context Protocol server that speaks JSON-RPC 2.0
// itself, in both protocol eras, over stdio and Streamable HTTP. It knows
// nothing about what it serves: an embedder hands NewServer a [Catalog] of
// tools, resources, resource templates, prompts and completions.
//
// # Protocol eras
//
// Version 2026-07-28 is stateless: every request carries its protocol
// version and client capabilities in params._meta, clients call
// server/discover instead of initialize, results carry resultType, server
// identity and (lists, resources/read, discover) caching hints, and
// subscriptions/listen replaces the legacy push channels. Versions
// 2025-11-25, 2025-06-18, 2025-03-26 and 2024-11-05 use the initialize
// handshake, a session (the stdio connection, or an Mcp-Session-Id over
// HTTP), ping, logging/setLevel and resources/subscribe. The era is chosen
// per request, so one endpoint serves both.
//
// # What the server does for the catalog
//
//   - pages lists with opaque cursors;
//   - reads every message strictly (exact-case member names; duplicate or
//     case-variant names, invalid UTF-8, nesting past 64 levels and a null
//     request id refused), so a proxy in front reads the same message;
//   - rejects unknown tools and prompts (-32602), validates tool arguments
//     against the tool's input schema (a result with isError naming the
//     offending argument, so the model can fix it), and checks required
//     prompt arguments;
//   - turns tool errors into results with isError, and errors wrapping
//     [ErrResourceNotFound] into the era's resource-not-found error;
//   - seals 2026-07-28 requestState with an HMAC, so handlers can trust it;
//   - recovers panics per request (-32603).
//
// # Transports
//
// [Server.ServeStdio] serves newline-delimited JSON-RPC and writes nothing
// but protocol messages to its writer; print status lines to standard error
// yourself. [NewHTTPHandler] serves POST/GET/DELETE on one endpoint with
// the status mapping of the spec, behind [Guards] (Host/Origin allowlist
// and API key) that also cover routes mounted with [HTTPHandler.Handle].
// [HTTPHandler.RunReaper] expires idle legacy sessions; at most
// HTTPOptions.MaxSessions are held, with at most [MaxSubscriptions] known
// resource URIs each. [NewHTTPServer] wraps a handler in an http.Server
// with [HTTPLimits]: header, body, write and idle timeouts sized for MCP
// (event streams extend their write deadline per write) and a connection
// cap that evicts idle connections first.
//
// Push notifications go through [Server.NotifyResourceUpdated] and
// [Server.NotifyListChanged]; they never block the caller.
package mcp
