#!/usr/bin/env python3
"""A scripted LSP client for ptx-front --lsp (make check's suite lsp).

Standard library only.  Each check starts servers, speaks LSP 3.17 to them
over pipes and compares what they say with what the CLI says of the same
files: diagnostics with --diagnostics-format=json, formatting with
--emit-ptx --canonical, symbols with --list-functions.  Malformed messages
must get JSON-RPC errors and leave the server answering.

usage: client.py PTX_FRONT [SHARED_DIR]      (run from the top of the tree)
prints one FAIL line per failed check, then "lsp: N passed, M failed"."""
import glob
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import traceback
import time

FRONT = sys.argv[1]
SHARED = sys.argv[2] if len(sys.argv) > 2 else None
TIMEOUT = 30

passed = 0
failed = 0


def ok():
    global passed
    passed += 1


def bad(what):
    global failed
    failed += 1
    print("FAIL " + what)


def check(cond, what):
    if cond:
        ok()
    else:
        bad(what)
    return cond


class Server:
    """One ptx-front --lsp process; messages read on a thread."""
    last = None

    def __init__(self, args=(), utf8=True, init=True, init_options=None):
        # stderr to a file: a sanitizer's report is shown when a check fails
        self.err = tempfile.TemporaryFile()
        Server.last = self
        self.p = subprocess.Popen([FRONT, "--lsp", *args], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=self.err)
        self.q = queue.Queue()
        self.next_id = 1
        self.pending = []       # notifications read while waiting for a reply
        threading.Thread(target=self._read, daemon=True).start()
        if init:
            caps = {"general": {"positionEncodings": ["utf-8", "utf-16"] if utf8 else ["utf-16"]}}
            params = {"processId": None, "rootUri": None, "capabilities": caps}
            if init_options is not None:
                params["initializationOptions"] = init_options
            self.init = self.request("initialize", params)
            self.notify("initialized", {})

    def _read(self):
        f = self.p.stdout
        while True:
            length = None
            while True:
                line = f.readline()
                if not line:
                    self.q.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                k, _, v = line.partition(b":")
                if k.lower() == b"content-length":
                    length = int(v)
            body = f.read(length)
            self.q.put(json.loads(body))

    def send_raw(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def send(self, msg):
        msg = dict(msg, jsonrpc="2.0")
        body = json.dumps(msg).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def get(self, timeout=TIMEOUT):
        """The next message (None at the end of the server's output)."""
        return self.q.get(timeout=timeout)

    def reply(self, id_, timeout=TIMEOUT):
        """The response to request id_; notifications before it are kept."""
        end = time.time() + timeout
        while True:
            m = self.get(max(0.1, end - time.time()))
            if m is None:
                raise EOFError("the server ended")
            if "id" in m and "method" not in m and m["id"] == id_:
                return m
            self.pending.append(m)

    def request_raw(self, method, params):
        i = self.next_id
        self.next_id += 1
        self.send({"id": i, "method": method, "params": params})
        return self.reply(i)

    def request(self, method, params):
        m = self.request_raw(method, params)
        if "error" in m:
            raise RuntimeError("%s: %s" % (method, m["error"]))
        return m["result"]

    def diagnostics(self, uri, timeout=TIMEOUT):
        """The next publishDiagnostics for uri."""
        end = time.time() + timeout
        for i, m in enumerate(self.pending):
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                del self.pending[i]
                return m["params"]["diagnostics"]
        while True:
            m = self.get(max(0.1, end - time.time()))
            if m is None:
                raise EOFError("the server ended")
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                return m["params"]["diagnostics"]
            self.pending.append(m)

    def open(self, uri, text, lang="ptx"):
        self.notify("textDocument/didOpen",
                    {"textDocument": {"uri": uri, "languageId": lang, "version": 1, "text": text}})
        return self.diagnostics(uri)

    def close(self):
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
        except (BrokenPipeError, EOFError, RuntimeError) as e:
            bad("shutdown and exit: %s" % e)
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        try:
            return self.p.wait(timeout=TIMEOUT)
        finally:
            self.p.stdout.close()

    def stderr_tail(self):
        self.err.seek(0)
        return self.err.read().decode("utf-8", "replace")[-3000:]


def pos(text, off, utf8=True):
    """The LSP position of byte offset off of text (bytes)."""
    line = text.count(b"\n", 0, off)
    start = text.rfind(b"\n", 0, off) + 1
    seg = text[start:off]
    if utf8:
        return {"line": line, "character": len(seg)}
    return {"line": line, "character": len(seg.decode("utf-8").encode("utf-16-le")) // 2}


def at(text, needle, nth=0, delta=0):
    """The position of the nth occurrence of needle (bytes), plus delta."""
    off = -1
    for _ in range(nth + 1):
        off = text.index(needle, off + 1)
    return pos(text, off + delta)


def tdp(uri, p):
    return {"textDocument": {"uri": uri}, "position": p}


def uri_of(path):
    return "file://" + os.path.abspath(path)


# ---- diagnostics: the same as the CLI's --------------------------------------------

def cli_diagnostics(path):
    # the document goes where GCC writes it: standard error
    r = subprocess.run([FRONT, "--diagnostics-format=json", path], capture_output=True)
    doc = json.loads(r.stderr.decode("utf-8", "replace"))
    out = []
    for d in doc:
        loc = d["locations"][0]["caret"] if d["locations"] else {"line": 1, "column": 1}
        kids = [(k["message"], k["locations"][0]["caret"]["line"] - 1, k["locations"][0]["caret"]["column"] - 1)
                for k in d.get("children", []) if k.get("locations")]
        fix = d["fixits"][0]["string"] if d.get("fixits") else None
        out.append((d["kind"], d["code"], d["message"], loc["line"] - 1, loc["column"] - 1, tuple(kids), fix))
    return out


def lsp_diagnostics(diags):
    kinds = {1: "error", 2: "warning", 3: "note"}
    out = []
    for d in diags:
        kids = [(r["message"], r["location"]["range"]["start"]["line"], r["location"]["range"]["start"]["character"])
                for r in d.get("relatedInformation", [])]
        fix = d.get("data", {}).get("fixit") if isinstance(d.get("data"), dict) else None
        out.append((kinds[d["severity"]], d["code"], d["message"], d["range"]["start"]["line"],
                    d["range"]["start"]["character"], tuple(kids), fix))
    return out


def test_diagnostics_equal_cli(files):
    s = Server()
    compared = with_errors = 0
    skipped = []
    for f in files:
        data = open(f, "rb").read()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            skipped.append(f)   # JSON strings are Unicode: such a file cannot be sent
            continue
        want = cli_diagnostics(f)
        got = lsp_diagnostics(s.open(uri_of(f), text))
        compared += 1
        with_errors += bool(want)
        if not check(got == want, "diagnostics of %s: the server's differ from the CLI's:\n  lsp %s\n  cli %s"
                     % (f, got[:3], want[:3])):
            break
    check(s.close() == 0, "shutdown then exit: status 0")
    if skipped:
        print("lsp: not sent (not UTF-8, which JSON strings cannot carry): %s" % " ".join(skipped))
    return compared, with_errors


# ---- one module, every capability ------------------------------------------------

MODULE = b"""\
.version 8.0
.target sm_90
.address_size 64

.global .u32 gv[4];

.func (.reg .b32 rv) helper(.param .u32 p)
{
\tld.param.u32 rv, [p];
\tret;
}

.visible .entry kern(.param .u64 out)
{
\t.reg .b32 %r<5>;
\t.reg .pred %p;
\t.reg .b64 %rd1;
\tmov.u32 %r1, %tid.x;
\tsetp.eq.u32 %p, %r1, 0;
\t@%p bra $L__done;
\tld.global.u32 %r2, [gv+4];
\tcall (%r3), helper, (%r2);
\tld.param.u64 %rd1, [out];
\tst.global.u32 [%rd1], %r3;
$L__done:
\tret;
}
"""


def test_capabilities():
    s = Server()
    check(s.init["capabilities"].get("positionEncoding") == "utf-8", "utf-8 offered: utf-8 chosen")
    caps = s.init["capabilities"]
    for c in ("hoverProvider", "definitionProvider", "referencesProvider", "documentSymbolProvider",
              "completionProvider", "documentFormattingProvider", "codeActionProvider"):
        check(c in caps, "capability %s announced" % c)
    uri = "file:///tmp/lsp-test/module.ptx"
    T = MODULE
    check(s.open(uri, T.decode()) == [], "a valid module: no diagnostics")

    # hover: opcode, register, variable, special register, directive, function, label
    h = s.request("textDocument/hover", tdp(uri, at(T, b"ld.global", 0, 1)))
    v = h["contents"]["value"] if h else ""
    check("**ld**" in v and "forms for PTX ISA 8.0, sm_90" in v and "ld{.weak}{.global}" in v,
          "hover on ld: its forms for 8.0/sm_90: %r" % v[:200])
    check("PTX ISA 8.1" not in v and "PTX ISA 8.6" not in v, "hover on ld: no form newer than .version 8.0")
    h = s.request("textDocument/hover", tdp(uri, at(T, b"%r2, [gv", 0, 1)))
    v = h["contents"]["value"] if h else ""
    check("register `%r2`" in v and ".reg .b32 %r<5>" in v and ".b32" in v and "line 15" in v,
          "hover on %%r2: its declaration and type: %r" % v)
    h = s.request("textDocument/hover", tdp(uri, at(T, b"[gv+4]", 0, 1)))
    v = h["contents"]["value"] if h else ""
    check("variable `gv`" in v and ".global .u32 gv[4]" in v, "hover on gv: %r" % v)
    h = s.request("textDocument/hover", tdp(uri, at(T, b"%tid.x", 0, 2)))
    v = h["contents"]["value"] if h else ""
    check("thread identifier" in v, "hover on %%tid.x: one line of meaning: %r" % v)
    h = s.request("textDocument/hover", tdp(uri, at(T, b".version", 0, 3)))
    v = h["contents"]["value"] if h else ""
    check("PTX ISA version" in v, "hover on .version: %r" % v)
    h = s.request("textDocument/hover", tdp(uri, at(T, b".maxntid", 0, 2) if b".maxntid" in T else at(T, b".reg", 0, 2)))
    check(h and "registers" in h["contents"]["value"], "hover on .reg: %r" % h)
    h = s.request("textDocument/hover", tdp(uri, at(T, b"helper, (", 0, 2)))
    v = h["contents"]["value"] if h else ""
    check("function `helper`" in v and ".func (.reg .b32 rv) helper(.param .u32 p)" in v,
          "hover on a called function: its header: %r" % v)
    h = s.request("textDocument/hover", tdp(uri, at(T, b"ld.param.u32 rv, [p]", 0, 18)))
    v = h["contents"]["value"] if h else ""
    check("variable `p`" in v and ".param .u32 p" in v, "hover on a parameter: %r" % v)
    h = s.request("textDocument/hover", tdp(uri, at(T, b"\n\n", 0, 1)))
    check(h is None, "hover on a blank line: null")

    # definition
    def definition(needle, nth=0, delta=1):
        r = s.request("textDocument/definition", tdp(uri, at(T, needle, nth, delta)))
        return (r["range"]["start"]["line"], r["range"]["start"]["character"]) if r else None
    check(definition(b"$L__done;") == (24, 0), "definition of a label: its line")
    check(definition(b"%r2, [gv") == (14, 11), "definition of %%r2: the %%r<5> declaration")
    check(definition(b"helper, (") == (6, 21), "definition of a call's function: its name")
    check(definition(b"[out]") == (12, 33), "definition of a kernel parameter")
    check(definition(b"gv+4") == (4, 13), "definition of a module variable")
    check(definition(b"[p]") == (6, 40), "definition of a function parameter")

    # references
    r = s.request("textDocument/references", dict(tdp(uri, at(T, b"%r1, %tid", 0, 1)),
                                                  context={"includeDeclaration": False}))
    check(sorted(x["range"]["start"]["line"] for x in r) == [17, 18], "references of %%r1: %r" % r)
    r = s.request("textDocument/references", dict(tdp(uri, at(T, b"$L__done:", 0, 1)),
                                                  context={"includeDeclaration": True}))
    check(sorted(x["range"]["start"]["line"] for x in r) == [19, 24], "references of a label, declaration included")
    r = s.request("textDocument/references", dict(tdp(uri, at(T, b"helper(", 0, 1)),
                                                  context={"includeDeclaration": True}))
    check(sorted(x["range"]["start"]["line"] for x in r) == [6, 21], "references of a function: %r" % r)

    # symbols
    syms = s.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    names = [(x["name"], x.get("detail")) for x in syms]
    check(names == [("gv", ".global .u32"), ("helper", ".func"), ("kern", ".entry")],
          "documentSymbol: module variable, function, kernel: %r" % names)
    kern = [x for x in syms if x["name"] == "kern"]
    check(kern and [c["name"] for c in kern[0].get("children", [])] == ["$L__done"], "labels inside kernels")

    # completion
    def complete(text_before, where):
        return s.request("textDocument/completion", tdp(uri, where))
    labels = lambda r: [i["label"] for i in r["items"]]
    # an edit: a new line "\tld." before "\tret;" of the kernel
    T2 = T.replace(b"$L__done:\n\tret;", b"$L__done:\n\tld.\n\tbra \n\tadd.s32 %r\n\tret;")
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                        "contentChanges": [{"text": T2.decode()}]})
    check(len(s.diagnostics(uri)) > 0, "an incomplete edit: diagnostics")
    r = s.request("textDocument/completion", tdp(uri, at(T2, b"\tld.\n", 0, 4)))
    L = labels(r)
    check(".global" in L and ".shared" in L and ".u32" in L and ".L1::evict_last" in L,
          "completion after 'ld.': modifiers: %r" % L[:20])
    check("add" not in L, "completion after 'ld.': no opcode")
    edit = r["items"][0]["textEdit"]["range"]
    check(edit["start"]["character"] == 3 and edit["end"]["character"] == 4, "a modifier replaces from the dot")
    r = s.request("textDocument/completion", tdp(uri, at(T2, b"\tbra \n", 0, 5)))
    check(labels(r) == ["$L__done"], "completion after 'bra ': the labels: %r" % labels(r))
    r = s.request("textDocument/completion", tdp(uri, at(T2, b"add.s32 %r\n", 0, 10)))
    L = labels(r)
    check("%r1" in L and "%r4" in L and "%p" in L and "%rd1" in L and "%r5" not in L,
          "completion of registers: %r" % L[:12])
    r = s.request("textDocument/completion", tdp(uri, at(T2, b"\tld.\n", 0, 1)))
    L = labels(r)
    check("ld" in L and "mov" in L and "mma" in L and "tcgen05" not in L and "wgmma" not in L,
          "completion of opcodes for sm_90 (no tcgen05 or wgmma, which are sm_100f and sm_90a): %r" % L)

    # formatting: an error refuses, a valid module formats as --emit-ptx --canonical
    r = s.request_raw("textDocument/formatting", {"textDocument": {"uri": uri}, "options": {"tabSize": 8, "insertSpaces": False}})
    check("error" in r, "formatting a module with errors: an error")
    ugly = T.replace(b"\tmov.u32 %r1, %tid.x;", b"      mov.u32    %r1,%tid.x ;")
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3},
                                        "contentChanges": [{"text": ugly.decode()}]})
    check(s.diagnostics(uri) == [], "back to a valid module: diagnostics cleared")
    path = "/tmp/lsp-test-ugly.%d.ptx" % os.getpid()
    with open(path, "wb") as f:
        f.write(ugly)
    want = subprocess.run([FRONT, "--emit-ptx", "--canonical", path], capture_output=True).stdout.decode()
    os.unlink(path)
    r = s.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": {"tabSize": 8, "insertSpaces": False}})
    check(len(r) == 1 and r[0]["newText"] == want and r[0]["range"]["start"] == {"line": 0, "character": 0},
          "formatting: the canonical printer's text")
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 4},
                                        "contentChanges": [{"text": want}]})
    s.diagnostics(uri)
    r = s.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": {"tabSize": 8, "insertSpaces": False}})
    check(r == [], "formatting a formatted module: no edit")
    check(s.close() == 0, "exit status 0")


def test_code_action_fix():
    s = Server()
    uri = "file:///tmp/lsp-test/fix.ptx"
    T = open("test/errors/decl_linkage_suggest.ptx", "rb").read()
    d = s.open(uri, T.decode())
    check(len(d) == 1 and d[0].get("data", {}).get("fixit") == ".visible", "a diagnostic with a fix-it: %r" % d)
    r = s.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": d[0]["range"],
                                              "context": {"diagnostics": d}})
    check(len(r) == 1 and r[0]["kind"] == "quickfix" and r[0]["isPreferred"], "one quick fix: %r" % r)
    edit = r[0]["edit"]["changes"][uri][0]
    check(edit["newText"] == ".visible", "the quick fix writes the fix-it")
    r2 = s.request("textDocument/codeAction", {"textDocument": {"uri": uri},
                                               "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}},
                                               "context": {"diagnostics": []}})
    check(r2 == [], "no quick fix far from the diagnostic")
    # the client applies the edit as an incremental change
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                        "contentChanges": [{"range": edit["range"], "text": edit["newText"]}]})
    check(s.diagnostics(uri) == [], "the fix applied: diagnostics cleared")
    # and an incremental change that breaks it again, at the right place
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3},
                                        "contentChanges": [{"range": {"start": {"line": 6, "character": 1},
                                                                      "end": {"line": 6, "character": 4}},
                                                            "text": "rte"}]})
    d = s.diagnostics(uri)
    check(len(d) >= 1 and d[0]["range"]["start"]["line"] == 6, "an incremental edit: its error on its line: %r" % d)
    check(s.close() == 0, "exit status 0")


def test_positions_utf16():
    # a comment with é (2 bytes, 1 unit) and U+1F600 (4 bytes, 2 units):
    # non-ASCII is an error, whose range ends after them
    text = ".version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t/* \u00e9\U0001F600 */ ret;\n}\n"
    for utf8, col in ((False, 7), (True, 10)):
        s = Server(utf8=utf8)
        check(s.init["capabilities"]["positionEncoding"] == ("utf-8" if utf8 else "utf-16"),
              "position encoding negotiated")
        d = s.open("file:///tmp/lsp-test/u.ptx", text)
        # a hover after them, on ret: the same place in either encoding
        h = s.request("textDocument/hover", tdp("file:///tmp/lsp-test/u.ptx", {"line": 5, "character": col + 5}))
        check(h and "ret" in h["contents"]["value"], "hover after non-ASCII (%s): %r" % ("utf-8" if utf8 else "utf-16", h))
        check(d and d[0]["range"]["start"] == {"line": 5, "character": 4} and
              d[0]["range"]["end"] == {"line": 5, "character": col},
              "%s columns after non-ASCII: %r" % ("utf-8" if utf8 else "utf-16", d[:1]))
        s.close()


def test_cuda_document():
    """A .cu document's asm statements are checked (ptx_parse_cuda): the
    error at the literal's line and column, the PTX line as its related
    note; a fix clears it; hover has no module to answer from."""
    s = Server()
    uri = "file:///tmp/lsp-test/k.cu"
    d = s.open(uri, "__global__ void k() { asm(\"bogus;\"); }\n", lang="cuda")
    check(len(d) == 1 and d[0]["message"] == "unknown instruction 'bogus'" and
          d[0]["range"]["start"] == {"line": 0, "character": 27} and
          d[0]["range"]["end"] == {"line": 0, "character": 32},
          ".cu document: the asm error at the literal: %r" % (d,))
    rel = d[0].get("relatedInformation", []) if d else []
    check(len(rel) == 1 and "PTX line 1 of this asm statement" in rel[0]["message"],
          ".cu document: the PTX line as related information: %r" % (rel,))
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                        "contentChanges": [{"text": "__global__ void k() { asm(\"exit;\"); }\n"}]})
    d = s.diagnostics(uri)
    check(d == [], ".cu document: a fixed asm statement clears the diagnostics: %r" % (d,))
    r = s.request("textDocument/hover", tdp(uri, {"line": 0, "character": 3}))
    check(r is None, "hover in a .cu document: null")
    s.close()


def test_malformed():
    s = Server()
    # bad JSON
    s.send_raw(b"Content-Length: 9\r\n\r\n{\"id\": 1,")
    m = s.get()
    check(m and m.get("error", {}).get("code") == -32700 and m.get("id") is None, "bad JSON: parse error %r" % m)
    # no Content-Length: the body runs into the next header, which is found
    s.send_raw(b"Content-Type: application/vscode-jsonrpc\r\n\r\n")
    m = s.get()
    check(m and m.get("error", {}).get("code") == -32700, "a header without Content-Length: an error %r" % m)
    s.send_raw(b"Content-Length: abc\r\n\r\n")
    m = s.get()
    check(m and m.get("error", {}).get("code") == -32700, "Content-Length not a number: an error")
    # not an object, a batch, no jsonrpc, bad id
    for body, what in ((b"42", "a number"), (b"[]", "a batch"), (b'{"id":1,"method":"shutdown"}', "no jsonrpc"),
                       (b'{"jsonrpc":"2.0","id":{},"method":"x"}', "an object as id"),
                       (b'{"jsonrpc":"2.0","id":7}', "no method")):
        s.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        m = s.get()
        check(m and m.get("error", {}).get("code") == -32600, "%s: invalid request %r" % (what, m))
    r = s.request_raw("textDocument/semanticTokens/full", {"textDocument": {"uri": "file:///x"}})
    check(r.get("error", {}).get("code") == -32601, "unknown method: method not found")
    s.notify("$/unknownNotification", {})
    uri = "file:///tmp/lsp-test/m.ptx"
    s.open(uri, MODULE.decode())
    for p, what in (({"line": 9999, "character": 0}, "line past the end"),
                    ({"line": -1, "character": 0}, "negative line"),
                    ({"line": 0, "character": -5}, "negative character"),
                    ({"line": "x", "character": 0}, "a string as line")):
        r = s.request_raw("textDocument/hover", tdp(uri, p))
        check(r.get("error", {}).get("code") == -32602, "%s: invalid params %r" % (what, r))
    r = s.request_raw("textDocument/hover", tdp(uri, {"line": 1, "character": 9999}))
    check("result" in r, "a character past the line's end means its end (LSP 3.17): %r" % r)
    r = s.request_raw("textDocument/hover", tdp("file:///not/open.ptx", {"line": 0, "character": 0}))
    check(r.get("error", {}).get("code") == -32602, "a document not open: invalid params")
    r = s.request_raw("textDocument/hover", None)
    check(r.get("error", {}).get("code") == -32602, "no params: invalid params")
    # a bad incremental change is refused, the document kept
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                        "contentChanges": [{"range": {"start": {"line": 500, "character": 0},
                                                                      "end": {"line": 501, "character": 0}}, "text": "x"}]})
    got_log = False
    for _ in range(3):
        m = s.get()
        if m and m.get("method") == "window/logMessage":
            got_log = True
            break
    check(got_log, "a change outside the document: said in the log")
    # still serving
    h = s.request("textDocument/hover", tdp(uri, at(MODULE, b"%tid.x", 0, 2)))
    check(h and "thread identifier" in h["contents"]["value"], "after all that, still answering")
    # a declared body too large is skipped
    s.send_raw(b"Content-Length: 999999999999\r\n\r\n")
    m = s.get()
    while m and "method" in m and "id" not in m:    # notifications still on their way
        m = s.get()
    check(m and m.get("error", {}).get("code") == -32600, "a body larger than the limit: refused: %r" % (m,))
    s.p.stdin.close()
    check(s.p.wait(timeout=TIMEOUT) == 1, "the client goes away (no shutdown): the server ends, status 1")
    s.p.stdout.close()


def test_lifecycle():
    s = Server(init=False)
    r = s.request_raw("textDocument/hover", tdp("file:///x", {"line": 0, "character": 0}))
    check(r.get("error", {}).get("code") == -32002, "a request before initialize: not initialized")
    r = s.request_raw("initialize", {"capabilities": {}})
    check(r["result"]["capabilities"]["positionEncoding"] == "utf-16", "nothing offered: utf-16")
    r = s.request_raw("initialize", {"capabilities": {}})
    check("error" in r, "initialize twice: an error")
    s.request("shutdown", None)
    r = s.request_raw("textDocument/hover", tdp("file:///x", {"line": 0, "character": 0}))
    check(r.get("error", {}).get("code") == -32600, "a request after shutdown: invalid request")
    s.notify("exit", None)
    check(s.p.wait(timeout=TIMEOUT) == 0, "shutdown, exit: status 0")
    s.p.stdin.close()
    s.p.stdout.close()
    # exit without shutdown
    s = Server()
    s.notify("exit", None)
    check(s.p.wait(timeout=TIMEOUT) == 1, "exit without shutdown: status 1")
    for f in (s.p.stdin, s.p.stdout):
        f.close()
    # --max-errors as the CLI's, and initializationOptions.maxErrors
    many = ".version 8.0\n.target sm_90\n.entry k()\n{\n" + "\tbogus;\n" * 40 + "}\n"
    for args, opts, n in (((), None, 20), (("--max-errors", "5"), None, 5), ((), {"maxErrors": 3}, 3)):
        s = Server(args=args, init_options=opts)
        d = s.open("file:///tmp/lsp-test/many.ptx", many)
        errors = [x for x in d if x["severity"] == 1]
        check(len(errors) == n, "%s %s: %d errors (%d)" % (args, opts, n, len(errors)))
        s.close()


def test_symbols_match_cli(files):
    s = Server()
    n = 0
    for f in files:
        want = subprocess.run([FRONT, "--list-functions", "--json", f], capture_output=True).stdout
        want = [x["name"] for x in json.loads(want)["functions"]]
        s.open(uri_of(f), open(f, encoding="utf-8").read())
        got = [x["name"] for x in s.request("textDocument/documentSymbol", {"textDocument": {"uri": uri_of(f)}})
               if x["kind"] in (12, 24)]
        n += 1
        if not check(got == want, "documentSymbol of %s: the functions of --list-functions" % f):
            break
        # a hover and a definition on every tenth name of the file do not fail
    s.close()
    return n


def test_corpus_navigation(files):
    """On corpus files: every use of a name resolves to a definition that
    names it, and hovering it gives its name."""
    s = Server()
    checked = 0
    for f in files:
        text = open(f, "rb").read()
        uri = uri_of(f)
        s.open(uri, text.decode())
        lines = text.split(b"\n")
        # registers used in the file's first instructions
        import re
        uses = []
        for ln, line in enumerate(lines):
            mm = re.match(rb"\s+(ld|st|add|mov|setp|bra)\S*\s+([^;]*);", line)
            if mm:
                for name in re.finditer(rb"(%[a-z]+[0-9]+|\$L__\w+)", mm.group(2)):
                    uses.append((ln, mm.start(2) + name.start(), name.group(0)))
            if len(uses) >= 20:
                break
        for ln, col, name in uses:
            p = {"line": ln, "character": col + 1}
            d = s.request("textDocument/definition", tdp(uri, p))
            if not check(d is not None, "%s:%d: definition of %s" % (f, ln + 1, name.decode())):
                continue
            l2 = lines[d["range"]["start"]["line"]]
            c2 = d["range"]["start"]["character"]
            base = name.rstrip(b"0123456789") if name.startswith(b"%") else name
            check(l2[c2:].startswith(base), "%s: definition of %s at %r" % (f, name.decode(), l2[c2:c2 + 20]))
            h = s.request("textDocument/hover", tdp(uri, p))
            check(h and name.decode() in h["contents"]["value"], "%s: hover on %s" % (f, name.decode()))
            checked += 1
    s.close()
    return checked


def main():
    errors = sorted(glob.glob("test/errors/*.ptx"))
    mistakes = sorted(glob.glob("test/mistakes/*.ptx"))
    corpus = []
    if SHARED and os.path.isdir(os.path.join(SHARED, "corpus/public")):
        corpus = sorted(glob.glob(os.path.join(SHARED, "corpus/public/*.ptx")))
    small = [f for f in corpus if os.path.getsize(f) < 400000]
    sample = int(os.environ.get("CHECK_SAMPLE") or 1)
    if sample > 1:
        # make check SANITIZE=1: 1 file in N (the plain pass checks them all)
        print("lsp: sanitized pass: 1 file in %d of each list" % sample)
        errors, mistakes, corpus, small = errors[::sample], mistakes[::sample], corpus[::sample], small[::sample]
    def run(fn, *args):
        """fn(*args); an exception (the server ended...) is a failure,
        with the server's stderr (a sanitizer's report)"""
        try:
            return fn(*args)
        except Exception:
            bad("%s raised:\n%s  the server's stderr: %s" % (fn.__name__, traceback.format_exc(),
                                                           Server.last.stderr_tail() if Server.last else ""))
            return None
    for fn in (test_capabilities, test_code_action_fix, test_positions_utf16, test_cuda_document, test_malformed,
               test_lifecycle):
        run(fn)
    r = run(test_diagnostics_equal_cli, errors + mistakes + corpus)
    if r:
        print("lsp: diagnostics of %d files (%d with errors) equal the CLI's" % r)
    if corpus:
        n = run(test_symbols_match_cli, small[:40])
        if n is not None:
            print("lsp: symbols of %d corpus files equal --list-functions" % n)
        n = run(test_corpus_navigation, small[:30])
        if n is not None:
            print("lsp: %d names of corpus files defined and hovered" % n)
    print("lsp: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
