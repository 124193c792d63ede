"""A Lua 5.2 sandbox shaped like Tabletop Simulator's.

The test suite and ``tts-builder check-lua`` run the generated mod Lua here;
the stubbed TTS API the tests drive it with is :mod:`tts_builder.testing`.
TTS runs MoonSharp, which is "based on Lua 5.2"; PUC Lua 5.2 is the closest
real Lua. So this module always uses ``lupa.lua52``: lupa's default runtime is
Lua 5.5, where ``tostring(6/2)`` is ``"3.0"`` rather than TTS's ``"3"``.
``/work/shared/docs/tts-lua.md`` explains the choices made here.

:class:`LuaSandbox`
    One Lua state with what TTS leaves out removed: no ``io``, ``package``,
    ``require``, ``dofile``, ``loadfile``, ``load``, ``loadstring``,
    ``module``, ``debug``, ``string.dump`` or lupa's ``python`` table; ``os``
    keeps only ``clock``, ``date``, ``time`` and ``difftime``. The globals
    ``unpack`` and ``pack`` exist, as in MoonSharp. Every call from Python runs
    under an instruction budget and counts the VM instructions it used. A
    memory cap also applies.

Instruction counting
--------------------
A Lua count hook (``debug.sethook(hook, "", N)``) fires every ``N`` VM
instructions. ``N`` is the ``hook_interval`` argument, and its default is 100.
These costs were measured on the 2-core build machine while other work was
running, so they are rough:

* A tight ``for`` loop of 1e6 iterations, 2e6 instructions, takes 6.3 ms in
  plain lupa (best of 15 runs). It takes 7.4 ms with ``N = 1000`` (1.2 times),
  9.2 ms with ``N = 100`` (1.45 times) and 226 ms with ``N = 1`` (36 times).
* Each :meth:`LuaSandbox.call` has a fixed overhead of about 3-4 us at
  ``N = 100`` and 7 us at ``N = 1000``. That is the wrapper, plus the drain
  described below, which runs up to ``N`` instructions.
* A realistic 89-instruction rules check takes about 2.4 us through plain
  lupa. It takes 6 us with ``N = 100``, 12 us with ``N = 1000`` and 30 us
  with ``N = 1``.

Rules checks are short calls, so 100 is the cheapest interval overall. The
budget is checked whenever the hook fires, so a runaway script stops within
about ``N`` instructions of its budget.

The hook alone would only count in steps of ``N``, so the count is refined.
The hook function's own instructions also use up the hook counter. Their
number, ``k``, is calibrated once per process. After the function returns, a
drain of straight-line code runs until the hook fires again. The drain is one
instruction a line, so the line where the hook fires gives the counter's
remainder. The count is therefore ``fires * (N - k) - drain_line + K``. The
constants are calibrated against ``hook_interval=1``, which counts exactly.
``last_instructions`` then matches an every-instruction count exactly for
plain Lua code. The tests check this.

Budgets inside a call: :attr:`LuaSandbox.budgeted` is a Lua function,
``budgeted(limit, fn, a1, a2, a3) -> first result``, that runs ``fn`` under a
budget of its own (:meth:`LuaSandbox.coarse_fire_limit`) and counts nothing:
the hook fires every ``COARSE_INTERVAL`` instructions while it runs, so it costs
next to nothing, and it stops ``fn`` no later than a top-level call with that
budget would (earlier, by up to ``COARSE_INTERVAL`` instructions).

Counting inside a call: :attr:`LuaSandbox.measure` is a Lua function,
``measure(limit, fn, a1, a2, a3) -> count, first result``, that Lua code given it
(``tts-builder check-lua``'s one call a game) runs a function with: the hook
counter restarts, ``fn`` runs under ``limit`` hook fires of its own
(:meth:`LuaSandbox.fire_limit` of a budget), and a drain of its own gives the
count, calibrated (``empty`` counts 1) to equal what a top-level call of ``fn``
counts. Its fires still count against the outer call's budget; the outer call's
``last_instructions`` is then only approximate. It raises an error outside a
sandbox call.

The following are not counted, or are only roughly counted:

* Time spent inside C and Python functions called from Lua, such as
  ``string.format``, ``table.sort``'s C part or a stub's Python code, counts
  nothing: each such call is one ``CALL`` instruction.
* Coroutines resumed during a call run under the same hook and budget,
  including those made by ``coroutine.wrap``. Their part-periods at each
  ``resume`` are lost, so counts that involve coroutines are approximate.
* A call that fails with an error also counts the error handler.

Converting values
-----------------
:meth:`LuaSandbox.to_lua` turns Python dicts and lists into Lua tables, with
lists as 1-based arrays. :meth:`LuaSandbox.from_lua` turns tables back. The
mapping is ambiguous, because Lua has a single table type and one number type:

* A table whose keys are exactly ``1..n`` becomes a list; any other table becomes
  a dict.
* An empty table has no keys to tell, so ``empty_as`` decides whether it becomes
  ``[]`` or ``{}``, unless it carries the tag of the runtime's ``U.json_decode``
  (``{}``, ``[]``, or ``U.NULL`` as ``None``). Moves cross into the rules as JSON
  text for that reason (``tts_builder.agreement.LuaEngine``).
* ``None`` inside a list becomes a hole, because nil cannot be stored in a
  table. ``[1, None, 3]`` therefore comes back as ``{1: 1, 3: 3}``.
* Lua 5.2 numbers are all doubles, so ``3.0`` comes back as ``3``. A dict with
  keys ``"1"`` and ``1`` keeps both keys, because Lua tells strings and numbers
  apart.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from lupa.lua52 import LuaMemoryError, LuaRuntime, LuaSyntaxError

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_HOOK_INTERVAL",
    "DEFAULT_MAX_MEMORY",
    "LuaBudgetExceeded",
    "LuaCompileError",
    "LuaMemoryExceeded",
    "LuaSandbox",
    "LuaSandboxError",
    "LuaScriptError",
]

DEFAULT_MAX_MEMORY = 64 * 2**20
"""Default Lua heap cap in bytes."""
DEFAULT_BUDGET = 100_000_000
"""Default instruction budget per call; about 0.3-0.5 s of plain Lua."""
DEFAULT_HOOK_INTERVAL = 100
"""Default count-hook interval in VM instructions (see the module docstring)."""

#: the hook interval while :attr:`LuaSandbox.budgeted` runs a call (a budget alone, no count).
COARSE_INTERVAL = 10_000

_LuaTable: Any = type(LuaRuntime().table())
_NO_LIMIT = 2**52  # hook fires; Lua numbers are doubles


# --------------------------------------------------------------------------- errors


class LuaSandboxError(Exception):
    """Base class for errors raised by the sandbox."""


class LuaScriptError(LuaSandboxError):
    """A Lua script raised an error, or a stub it called raised one.

    ``message`` is the Lua message, e.g. ``"Global.lua:12: attempt to index a nil value"``.
    ``lua_traceback`` is the Lua stack traceback, or None. ``value`` is the raw error
    value: the message string, a Python exception raised inside a stub, or a
    table converted by ``from_lua``. ``str()`` gives the message, then the traceback.
    """

    def __init__(self, message: str, *, lua_traceback: str | None = None, value: Any = None) -> None:
        self.message = message
        self.lua_traceback = lua_traceback
        self.value = message if value is None else value
        super().__init__(message if not lua_traceback else f"{message}\n{lua_traceback}")


class LuaCompileError(LuaScriptError):
    """A chunk did not compile. ``line`` is the line that the message names, or None."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class LuaBudgetExceeded(LuaSandboxError):
    """A call ran past its instruction budget; it was stopped, and the sandbox is still usable."""

    def __init__(self, budget: int, instructions: int) -> None:
        self.budget = budget
        self.instructions = instructions
        super().__init__(
            f"Lua instruction budget of {budget:,} exceeded "
            f"(stopped after about {instructions:,} instructions)"
        )


class LuaMemoryExceeded(LuaSandboxError):
    """The Lua heap hit ``max_memory``; the sandbox collected garbage and is still usable."""

    def __init__(self, max_memory: int | None) -> None:
        self.max_memory = max_memory
        super().__init__(f"Lua memory limit of {max_memory:,} bytes exceeded" if max_memory else
                         "Lua ran out of memory")


# --------------------------------------------------------------------------- sandbox

# The prelude runs once in each new runtime. It captures what the harness needs
# (sethook, getinfo, traceback, load), removes what TTS lacks, and returns the
# call wrapper and helpers as locals, so scripts cannot see or replace them.
_PRELUDE = r"""
local sethook, getinfo, traceback = debug.sethook, debug.getinfo, debug.traceback
local rawload, G = load, _G
local tpack, tunpack = table.pack, table.unpack
local xpcall, error, type, setmetatable = xpcall, error, type, setmetatable
local co_create, co_resume = coroutine.create, coroutine.resume

io, package, require, dofile, loadfile, load, loadstring, module, debug, python = nil
os = { clock = os.clock, date = os.date, time = os.time, difftime = os.difftime }
string.dump = nil
unpack, pack = table.unpack, table.pack

local N = @N@
local fires, limit, active, exceeded, draining, drained, dline, result = 0, 0, false, false, false, false, 0, nil
local BUDGET, DRAIN = {}, {}
local wrapper, handler

local function hook()
  if draining then
    if not drained then drained = true; dline = getinfo(2, 'l').currentline; error(DRAIN, 0) end
    return
  end
  if not active then sethook() return end
  fires = fires + 1
  if fires > limit then
    local f = getinfo(2, 'f').func
    if f ~= wrapper and f ~= handler then
      -- From now on fire at every instruction, so code that catches the error
      -- with pcall is stopped again at its next instruction.
      exceeded = true; sethook(hook, '', 1); error(BUDGET, 0)
    end
  end
end

handler = function(e)
  if e == DRAIN or e == BUDGET then return e end
  return { err = e, tb = traceback(nil, 2) }
end

local function body(fn, ...)
  result = tpack(fn(...))
  local a
  draining = true
@DRAIN@
end

wrapper = function(fn, lim, ...)
  fires, limit, exceeded, draining, drained, dline, result = 0, lim, false, false, false, 0, nil
  active = true
  sethook(hook, '', N)
  local _, err = xpcall(body, handler, fn, ...)
  sethook()
  active = false
  local r = result
  result = nil
  if draining then
    return fires, dline, exceeded, true, tunpack(r, 1, r.n)
  end
  return fires, dline, exceeded, false, err
end

local function resume(co, ...)
  if active then sethook(co, hook, '', N) end
  return co_resume(co, ...)
end
coroutine.resume = resume
coroutine.wrap = function(f)
  local co = co_create(f)
  return function(...)
    local r = tpack(resume(co, ...))
    if r[1] then return tunpack(r, 2, r.n) end
    if type(r[2]) == 'string' then error(r[2], 2) end
    error(r[2], 0)
  end
end

local function load_in_env(src, chunkname, env)
  local fn, err = rawload(src, chunkname, 't', env)
  return fn, err
end

local function object_env(self_obj)
  return setmetatable({ self = self_obj }, { __index = G })
end

local function set_interval(n) N = n end

-- The JSON tag util.lua puts in a metatable ("object", "array", "null"), read
-- with the functions captured here so scripts cannot change the answer.
local getmetatable, rawget = getmetatable, rawget
local function json_tag(t)
  local m = getmetatable(t)
  if type(m) == 'table' then return rawget(m, 'json') end
  return nil
end

local function empty() end
local function loop(n) local s = 0 for i = 1, n do s = s + i end return s end

-- measure: one call's own instruction count inside a running sandbox call (see
-- LuaSandbox.measure). sethook restarts the hook counter, the inner drain finds its
-- remainder as the outer one does, and the outer call keeps counting its budget.
local nk, nK = 0, 0
local function ndrain()
  local a
  draining = true
@NDRAIN@
end

local function measure(lim, fn, a1, a2, a3)
  if not active or draining then error("measure runs only inside a sandbox call", 2) end
  local outer, outer_limit = fires, limit
  sethook(hook, '', N)
  fires = 0 -- after sethook restarts the counter: a fire before it is the outer call's
  limit = lim
  local r = fn(a1, a2, a3)
  drained = false
  pcall(ndrain)
  draining = false -- before drained: the hook may fire between the two
  drained = false
  local f = fires
  fires, limit = outer + f, outer_limit
  return f * (N - nk) - dline + nK, r
end

-- budgeted: a call inside a running sandbox call under a budget of its own, uncounted: the
-- hook fires every COARSE instructions only while it runs (see LuaSandbox.budgeted).
local COARSE = @COARSE@
local function budgeted(lim, fn, a1, a2, a3)
  if not active or draining then error("budgeted runs only inside a sandbox call", 2) end
  local outer, outer_limit = fires, limit
  sethook(hook, '', COARSE)
  fires = 0
  limit = lim
  local r = fn(a1, a2, a3)
  local f = fires
  sethook(hook, '', N)
  limit = outer_limit
  fires = outer + f * (COARSE - nk) / (N - nk)
  return r
end

local function set_nested(k, K) nk, nK = k, K end
local function nested_probe(fn, n) return (measure(2^52, fn, n)) end

return wrapper, load_in_env, object_env, set_interval, empty, loop, json_tag, measure, set_nested, nested_probe,
  budgeted
"""


def _prelude(hook_interval: int) -> str:
    # The drain is straight-line code, one instruction a line, so the line where
    # the hook fires gives the hook counter's remainder exactly.
    drain = "  a = 1\n" * (hook_interval + 4)
    return (_PRELUDE.replace("@N@", str(hook_interval)).replace("@DRAIN@\n", drain)
            .replace("@NDRAIN@\n", drain).replace("@COARSE@", str(COARSE_INTERVAL)))


# (k, K) per hook interval: see LuaSandbox._calibrate.
_CALIBRATION: dict[int, tuple[int, int]] = {}
# K of LuaSandbox.measure per hook interval: see LuaSandbox._calibrate_nested.
_NESTED_CALIBRATION: dict[int, int] = {}


class LuaSandbox:
    """One sandboxed Lua 5.2 state, limited the way TTS limits scripts.

    ``max_memory``
        Lua heap cap in bytes. Going over it raises :class:`LuaMemoryExceeded`.
    ``default_budget``
        Instruction budget for calls that give none. None means no limit,
        though instructions are still counted.
    ``hook_interval``
        Count-hook interval in VM instructions: 1 (exact and slow) or at least
        50, so the hook's own instructions stay a small part of each period.
        See the module docstring.

    ``print`` from Lua appends to :attr:`output`. :class:`FakeTTS` replaces it
    with its own recorder.
    """

    def __init__(
        self,
        *,
        max_memory: int | None = DEFAULT_MAX_MEMORY,
        default_budget: int | None = DEFAULT_BUDGET,
        hook_interval: int = DEFAULT_HOOK_INTERVAL,
    ) -> None:
        if hook_interval < 1:
            raise ValueError("hook_interval must be at least 1")
        self.max_memory = max_memory
        self.default_budget = default_budget
        self.hook_interval = hook_interval
        self.runtime: Any = LuaRuntime(
            unpack_returned_tuples=True,
            register_eval=False,
            register_builtins=False,
            attribute_filter=_attribute_filter,
            max_memory=max_memory,
        )
        (self._wrapper, self._load_in_env, self._object_env, set_interval,
         empty, loop, self._json_tag, self.measure, set_nested, nested_probe, self.budgeted) = self.runtime.execute(
            _prelude(hook_interval), name="=sandbox")
        self.globals: Any = self.runtime.globals()
        self.output: list[str] = []
        self.globals.print = self._lua_print_factory()
        self.last_instructions = 0
        """VM instructions of the last top-level :meth:`call`; see the module docstring."""
        self._depth = 0
        if hook_interval not in _CALIBRATION:
            _CALIBRATION[hook_interval] = self._calibrate(set_interval, empty, loop)
        set_interval(hook_interval)
        self._k, self._K = _CALIBRATION[hook_interval]
        if hook_interval not in _NESTED_CALIBRATION:
            _NESTED_CALIBRATION[hook_interval] = self._calibrate_nested(set_nested, nested_probe, empty, loop)
        set_nested(self._k, _NESTED_CALIBRATION[hook_interval])

    def fresh(self) -> LuaSandbox:
        """A new, empty sandbox with the same settings."""
        return LuaSandbox(max_memory=self.max_memory, default_budget=self.default_budget,
                          hook_interval=self.hook_interval)

    # ------------------------------------------------------------------ running code

    def compile(self, source: str, name: str) -> Any:
        """Compile a chunk without running it; raises :class:`LuaCompileError`."""
        try:
            return self.runtime.compile(source, name=_chunkname(name))
        except LuaSyntaxError as exc:
            raise _compile_error(exc) from None
        except LuaMemoryError:
            self.runtime.gccollect()
            raise LuaMemoryExceeded(self.max_memory) from None

    def execute(self, source: str, name: str, *, budget: int | None = None) -> Any:
        """Run a chunk in the shared globals and return what it returns.

        Error messages read ``name:LINE: ...``. A leading ``=`` or ``@`` on ``name``
        is kept; otherwise ``=`` is added.
        """
        return self.call(self.compile(source, name), budget=budget)

    def run_object_script(self, source: str, name: str, self_obj: Any, *,
                          budget: int | None = None) -> Any:
        """Run an object script in its own environment and return that environment.

        TTS gives each object script its own globals plus ``self``. Here the
        environment is a table ``{self = self_obj}`` whose ``__index`` is the
        shared globals, so the TTS API is visible. Writes stay in the environment.
        Unlike TTS, the Global script's globals are visible too, because they
        live in the shared table. Use ``rawget`` on the environment to find a
        handler the object script defines itself.
        """
        env = self._object_env(self_obj)
        fn, err = self._load_in_env(source, _chunkname(name), env)
        if fn is None:
            raise _compile_error(err)
        self.call(fn, budget=budget)
        return env

    def call(self, fn: Any, *args: Any, budget: int | None = None) -> Any:
        """Call a Lua function under an instruction budget and return its result.

        ``fn`` is a Lua function, or a global's name, which may be dotted as in
        ``"Rules.check"``. Python dicts, lists and tuples among ``args`` are
        converted with :meth:`to_lua`; other values pass as they are. No
        results return None, one result returns that value, and several return
        a tuple. Tables come back as lupa tables; use :meth:`from_lua` on them.

        ``budget`` is in VM instructions. None means ``default_budget``.
        Overrunning it raises :class:`LuaBudgetExceeded`, a full heap raises
        :class:`LuaMemoryExceeded`, and a Lua error raises
        :class:`LuaScriptError`. A call made while another is running, such as
        a stub calling back into Lua, runs directly inside the outer call's
        budget and count.
        """
        if isinstance(fn, str):
            name, fn = fn, self.lookup(fn)
            if fn is None:
                raise LuaSandboxError(f"no Lua function {name!r}")
        conv = [self.to_lua(a) if isinstance(a, (dict, list, tuple)) else a for a in args]
        if self._depth:
            return fn(*conv)
        if budget is None:
            budget = self.default_budget
        per_fire = self.hook_interval - self._k
        limit = _NO_LIMIT if budget is None else budget // per_fire
        self._depth = 1
        try:
            res = self._wrapper(fn, limit, *conv)
        except LuaMemoryError:
            self.runtime.gccollect()
            raise LuaMemoryExceeded(self.max_memory) from None
        finally:
            self._depth = 0
        fires, dline, exceeded, ok = res[0], res[1], res[2], res[3]
        if exceeded:
            self.last_instructions = min(fires, limit + 1) * per_fire
            raise LuaBudgetExceeded(budget if budget is not None else _NO_LIMIT, self.last_instructions)
        self.last_instructions = max(0, fires * per_fire - dline + self._K)
        if not ok:
            self._raise_lua_error(res[4])
        n = len(res) - 4
        if n == 1:
            return res[4]
        if n == 0:
            return None
        return res[4:]

    def lookup(self, dotted: str) -> Any:
        """The value of a global, or of a dotted path such as ``"Rules.check"``; None if absent."""
        value: Any = self.globals
        for part in dotted.split("."):
            if not isinstance(value, _LuaTable):
                return None
            value = value[part]
        return value

    def _raise_lua_error(self, err: Any) -> None:
        if err == "not enough memory":
            self.runtime.gccollect()
            raise LuaMemoryExceeded(self.max_memory)
        if not isinstance(err, _LuaTable):  # pragma: no cover - the handler always wraps
            raise LuaScriptError(str(err))
        value, tb = err["err"], _trim_traceback(err["tb"])
        if isinstance(value, BaseException):
            raise LuaScriptError(f"{type(value).__name__} in a Python stub: {value}",
                                 lua_traceback=tb, value=value) from value
        if isinstance(value, str):
            raise LuaScriptError(value, lua_traceback=tb)
        if isinstance(value, bytes):
            raise LuaScriptError(value.decode("utf-8", "replace"), lua_traceback=tb)
        converted = self.from_lua(value)
        raise LuaScriptError(f"Lua error value {converted!r}", lua_traceback=tb, value=converted)

    def _calibrate(self, set_interval: Any, empty: Any, loop: Any) -> tuple[int, int]:
        """Work out (k, K) for ``count = fires * (N - k) - drain_line + K``.

        ``hook_interval=1`` counts exactly, because every real instruction fires
        the hook and the hook's own instructions fire nothing. Calibration runs
        ``empty`` and ``loop(n)`` that way, then at the chosen interval, and
        solves for k and K. ``empty`` counts as 1 instruction, its RETURN.
        """
        n_int = self.hook_interval

        def raw(fn: Any, *args: Any) -> tuple[int, int]:
            res = self._wrapper(fn, _NO_LIMIT, *args)
            return res[0], res[1]

        set_interval(1)
        base_f, base_line = raw(empty)
        truth = raw(loop, 25_000)[0] - base_f + 1
        if n_int == 1:
            return 0, 1 - base_f + base_line
        set_interval(n_int)
        f0, line0 = raw(empty)
        big_f, big_line = raw(loop, 25_000)
        best: tuple[int, int] = (2**62, 0)
        for k in range(n_int):
            K = 1 - f0 * (n_int - k) + line0
            err = abs(big_f * (n_int - k) - big_line + K - truth)
            if err < best[0]:
                best = (err, k)
        k = best[1]
        if best[0] > 2 or 2 * k >= n_int:
            raise LuaSandboxError(f"cannot calibrate the instruction count at hook_interval={n_int}; "
                                  "use 1 or at least 50")
        return k, 1 - f0 * (n_int - k) + line0

    def _calibrate_nested(self, set_nested: Any, probe: Any, empty: Any, loop: Any) -> int:
        """Work out K for :attr:`measure`'s ``count = fires * (N - k) - drain_line + K``: ``empty``
        measured inside a call counts 1, as at the top level; ``loop`` must then count what a
        top-level call of it counts (exact, see :meth:`_calibrate`)."""
        per_fire = self.hook_interval - self._k

        def run(*args: Any) -> tuple[int, int, Any]:  # hook fires, drain line, first result
            res = self._wrapper(*args)
            return res[0], res[1], res[4]

        set_nested(self._k, 0)
        nested_K = 1 - int(run(probe, _NO_LIMIT, empty, 0)[2])
        fires, line, _ = run(loop, _NO_LIMIT, 25_000)
        truth = max(0, fires * per_fire - line + self._K)
        if int(run(probe, _NO_LIMIT, loop, 25_000)[2]) + nested_K != truth:
            raise LuaSandboxError(f"cannot calibrate nested instruction counts at hook_interval={self.hook_interval}")
        return nested_K

    def coarse_fire_limit(self, budget: int | None) -> int:
        """The hook-fire limit :attr:`budgeted` takes for a budget of ``budget`` instructions
        (None: no limit): one that stops a call no later than ``budget`` instructions, so never
        later than a top-level :meth:`call` with that budget does (which stops just past it)."""
        if budget is None:
            return _NO_LIMIT
        return max(0, budget // (COARSE_INTERVAL - self._k) - 1)

    def fire_limit(self, budget: int | None) -> int:
        """The hook-fire limit :attr:`measure` takes for a budget of ``budget`` instructions (None:
        no limit), the limit a top-level :meth:`call` with that budget runs under."""
        return _NO_LIMIT if budget is None else budget // (self.hook_interval - self._k)

    # ------------------------------------------------------------------ values

    def to_lua(self, obj: Any) -> Any:
        """Python dict/list/tuple into Lua tables, recursively; other values as they are.

        Lists become 1-based arrays. ``None`` values are dropped, because nil
        cannot be stored in a table.
        """
        if isinstance(obj, (dict, list, tuple)):
            return self.runtime.table_from(obj, recursive=True)
        return obj

    def from_lua(self, value: Any, *, empty_as: Literal["list", "dict"] = "list") -> Any:
        """Lua tables into Python lists and dicts, recursively.

        A table with keys exactly ``1..n`` becomes a list, an empty table
        becomes ``empty_as``, and anything else becomes a dict. Whole-number
        floats become ints. Functions and userdata come back as they are.
        Nesting deeper than 200, which includes cyclic tables, raises ValueError.

        Tables read by the runtime's ``U.json_decode`` carry a tag, which wins:
        an empty tagged object becomes ``{}``, an empty tagged array ``[]``, and
        ``U.NULL`` becomes ``None``.
        """
        if empty_as not in ("list", "dict"):
            raise ValueError("empty_as must be 'list' or 'dict'")
        return _from_lua(value, empty_as == "list", 0, self._json_tag)

    def table(self, *items: Any, **fields: Any) -> Any:
        """A new Lua table from positional items (the array part) and keyword fields."""
        return self.runtime.table(*items, **fields)

    def memory_used(self) -> int:
        """Bytes currently used by the Lua heap."""
        return int(self.runtime.get_memory_used())

    def _lua_print_factory(self) -> Any:
        out = self.output
        join = self.runtime.eval(
            "function(rec) return function(...) local n = select('#', ...) local t = {} "
            "for i = 1, n do t[i] = tostring((select(i, ...))) end rec(table.concat(t, '\\t')) end end")
        return join(out.append)


def _chunkname(name: str) -> str:
    return name if name[:1] in ("=", "@") else "=" + name


_LINE_RE = re.compile(r":(\d+): ")


def _compile_error(exc: Any) -> LuaCompileError:
    msg = str(exc)
    m = _LINE_RE.search(msg)
    return LuaCompileError(msg, line=int(m.group(1)) if m else None)


def _trim_traceback(tb: Any) -> str | None:
    """Drop the sandbox's own frames (the call wrapper) from a Lua traceback."""
    if not isinstance(tb, str):
        return None
    keep = []
    for line in tb.split("\n"):
        if line.startswith("\tsandbox:"):
            break
        keep.append(line)
    return "\n".join(keep)


def _attribute_filter(obj: Any, name: Any, is_setting: bool) -> Any:
    # Lua sees Python stubs' public attributes only: no __class__ or _private escape.
    if isinstance(name, str):
        if name.startswith("_") or name in getattr(obj, "_lua_hidden", ()):
            raise AttributeError(f"{type(obj).__name__} has no Lua field {name!r}")
        if is_setting:
            settable = getattr(obj, "_lua_settable", None)
            if settable is not None and name not in settable:
                raise AttributeError(f"{type(obj).__name__}.{name} is read-only")
    return name


def _py_key(k: Any) -> Any:
    if type(k) is float and k.is_integer():
        return int(k)
    return k


def _from_lua(value: Any, empty_list: bool, depth: int, json_tag: Any) -> Any:
    tp = type(value)
    if tp is float:
        return int(value) if value.is_integer() else value
    if tp is not _LuaTable:
        return value
    if depth > 200:
        raise ValueError("Lua table nested deeper than 200 levels (cyclic?)")
    d: dict[Any, Any] = {}
    for k, v in value.items():
        k = _py_key(k)
        if isinstance(k, _LuaTable):
            raise ValueError("a Lua table used as a table key cannot be converted")
        d[k] = _from_lua(v, empty_list, depth + 1, json_tag)
    if not d:
        tag = json_tag(value)
        if tag == "null":
            return None
        if tag in ("object", "array"):
            return {} if tag == "object" else []
        return [] if empty_list else {}
    n = len(d)
    if all(type(k) is int for k in d) and min(d) == 1 and max(d) == n:
        return [d[i] for i in range(1, n + 1)]
    return d
