//go:build !wasip1

package main

import (
	"reflect"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// TestV2Facts: the ABI v2 facts of one file, which the golden dumps do
// not print: its module key and test marker, each import's keys and
// kind, receiver, result, parameter and callback type references.
func TestV2Facts(t *testing.T) {
	info, err := extract.RunProject(projectInfo, workspace())
	if err != nil {
		t.Fatal(err)
	}
	extract.SetProject(info)
	defer extract.SetProject(nil)
	src := `import "./polyfill";
import React, { useState as useS } from "react";
import * as core from "zod/v4/core";
const fs = require("./fs.js");

export function operate(init: (this: Ctx, source: Observable<T>, sub: Subscriber<R>) => void): OperatorFunction<T, R> {
  return null;
}

export function run(x: Subscriber<number>) {
  operate((source, sub) => sub.next(1));
  x.next(2);
}
`
	facts := plugintest.ExtractSource(t, Extractor{}, "classic/a.test.ts", []byte(src))
	// The bare specifiers react and zod/v4/core read the configs of
	// classic/ and above and the packages they may name; ./polyfill and
	// ./fs.js read no part of the project.
	deps := []string{"cfg:.", "cfg:^", "cfg:classic", "pkg:react", "pkg:zod", "pkg:zod/v4", "pkg:zod/v4/core"}
	if want := (abi.FileFacts{Modules: []string{"classic/a.test.ts"}, Test: true, ProjectDeps: deps}); !reflect.DeepEqual(facts.File, want) {
		t.Errorf("file facts = %+v, want %+v", facts.File, want)
	}
	type imp struct {
		kind  abi.ImportKind
		first string
		names []abi.ImportName
	}
	var imps []imp
	for _, im := range facts.Imports {
		first := ""
		if len(im.Keys) > 0 {
			first = im.Keys[0]
		}
		imps = append(imps, imp{im.Kind, first, im.Names})
	}
	wantImps := []imp{
		{abi.ImportSideEffect, "classic/polyfill", nil},
		{abi.ImportSymbols, "", []abi.ImportName{{Name: "React"}, {Name: "useState", Alias: "useS"}}},
		{abi.ImportSymbols, "core/index.ts", nil},
		{abi.ImportSymbols, "classic/fs.js", nil},
	}
	if !reflect.DeepEqual(imps, wantImps) {
		t.Errorf("imports = %+v\nwant %+v", imps, wantImps)
	}
	refs := map[string]string{}
	for _, c := range facts.Calls {
		if c.ReceiverRef != nil {
			refs[c.Receiver+"."+c.Name] = c.ReceiverRef.String()
		}
	}
	if want := map[string]string{"sub.next": "operate@0.1", "x.next": "Subscriber"}; !reflect.DeepEqual(refs, want) {
		t.Errorf("receiver refs = %v, want %v", refs, want)
	}
	for _, s := range facts.Symbols {
		if s.Name != "operate" {
			continue
		}
		sig := s.Signature
		if sig.ReturnRef.String() != "OperatorFunction" {
			t.Errorf("operate returns %v, want OperatorFunction", sig.ReturnRef)
		}
		var cb []string
		for _, r := range sig.Params[0].Callback {
			cb = append(cb, r.String())
		}
		if want := []string{"Observable", "Subscriber"}; !reflect.DeepEqual(cb, want) {
			t.Errorf("operate's callback types = %v, want %v (this: left out)", cb, want)
		}
	}
}
