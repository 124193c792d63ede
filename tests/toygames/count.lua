-- Toy Count's rules in Lua (tests only): the mirror of toygames.CountGame, written to the Rules
-- interface (docs/authoring.md, lua_templates/runtime/interfaces.lua). No options, no setup.
Rules = {}
Rules.CARDS = {}
local TARGET = 7

function Rules.new_state(setup, options)
  return { counter = 0, turn = 0, over = false, forfeited_by = nil }
end

function Rules.current_player(s)
  if s.over then return nil end
  return s.turn % 2
end

function Rules.is_over(s) return s.over end

function Rules.check(s, move)
  if type(move) ~= "table" or (move.type ~= "add" and move.type ~= "forfeit") then
    return { ok = false, rule = "move-format", message = "Moves are add, forfeit." }
  end
  if move.type == "add" and move.amount ~= 1 and move.amount ~= 2 then
    return { ok = false, rule = "amount", message = "Add 1 or 2." }
  end
  return { ok = true }
end

function Rules.apply(s, move)
  if move.type == "forfeit" then
    s.forfeited_by = Rules.current_player(s)
    s.over = true
    return
  end
  s.counter = s.counter + move.amount
  s.over = s.counter >= TARGET
  if not s.over then s.turn = s.turn + 1 end
end

function Rules.describe_move(move, s)
  if move.type == "forfeit" then return "forfeits" end
  return "adds " .. tostring(move.amount)
end

function Rules.result(s)
  if not s.over then return nil end
  if s.forfeited_by ~= nil then
    local w = 1 - s.forfeited_by
    return { kind = "competitive", outcome = "win", winner = w, winners = { w }, reason = "forfeit",
             forfeited_by = s.forfeited_by }
  end
  local w = s.turn % 2
  return { kind = "competitive", outcome = "win", winner = w, winners = { w }, reason = "reached" }
end
