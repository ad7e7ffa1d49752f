#!/usr/bin/env python3
"""A FastAPI twin of two Deskmate endpoints, for the API benchmark (scripts/bench-api.sh).

- GET  /api/v1/tools/list  — the same tool list, built per request from the specs file.
- POST /api/v1/tools/call  — calculator only: bearer token, Draft 2020-12 validation of
  the arguments with Python's jsonschema (validator built once), a safe arithmetic
  evaluator (ast, no eval), and Deskmate's result shape.

It does less than Deskmate does per call (no normalization, no audit row in SQLite, no
idempotency): a generous twin.

    DESKMATE_SPECS=specs.json DESKMATE_TOKEN=t uvicorn fastapi_twin:app --port 8766
"""
import ast
import json
import math
import operator
import os
import time
import uuid

import jsonschema
from fastapi import FastAPI, Header, HTTPException, Request

SPECS = json.load(open(os.environ["DESKMATE_SPECS"]))
TOKEN = os.environ["DESKMATE_TOKEN"]
CALCULATOR = next(s for s in SPECS if s["id"] == "calculator")
VALIDATOR = jsonschema.Draft202012Validator(CALCULATOR["parameters"])

app = FastAPI()

OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
       ast.Pow: operator.pow, ast.Mod: operator.mod, ast.USub: operator.neg, ast.UAdd: operator.pos}
FUNCS = {"sqrt": math.sqrt, "abs": abs, "round": round, "floor": math.floor, "ceil": math.ceil,
         "min": min, "max": max, "ln": math.log, "log10": math.log10, "sin": math.sin, "cos": math.cos, "tan": math.tan}
CONSTS = {"pi": math.pi, "e": math.e}


def evaluate(node):
    if isinstance(node, ast.Expression):
        return evaluate(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in OPS:
        return OPS[type(node.op)](evaluate(node.left), evaluate(node.right))
    if isinstance(node, ast.UnaryOp) and type(node.op) in OPS:
        return OPS[type(node.op)](evaluate(node.operand))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCS:
        return FUNCS[node.func.id](*[evaluate(a) for a in node.args])
    if isinstance(node, ast.Name) and node.id in CONSTS:
        return CONSTS[node.id]
    raise ValueError("unsupported expression")


def check_token(authorization):
    if authorization != f"Bearer {TOKEN}":
        raise HTTPException(status_code=401, detail="missing or invalid bearer token")


def result(ok, data=None, error=None, error_type=None, started=0.0):
    return {"ok": ok, "data": data, "error": error, "error_type": error_type, "hint": None, "options": [],
            "repairs": [], "truncated": False, "call_id": uuid.uuid4().hex,
            "duration_ms": int((time.perf_counter() - started) * 1000)}


@app.get("/api/v1/tools/list")
def tools_list(authorization: str = Header(default="")):
    check_token(authorization)
    return {"tools": {s["id"]: {"name": s["name"]["zh"], "description": s["description"], "parameters": s["parameters"]}
                      for s in SPECS}}


@app.post("/api/v1/tools/call")
async def tools_call(request: Request, authorization: str = Header(default="")):
    check_token(authorization)
    started = time.perf_counter()
    body = await request.json()
    if body.get("tool") != "calculator":
        return result(False, error="only calculator in the twin", error_type="not_found", started=started)
    arguments = body.get("arguments", {})
    errors = list(VALIDATOR.iter_errors(arguments))
    if errors:
        return result(False, error="; ".join(e.message for e in errors), error_type="validation", started=started)
    expression = arguments["expression"]
    try:
        value = evaluate(ast.parse(expression.replace("^", "**"), mode="eval"))
    except (ValueError, SyntaxError, ZeroDivisionError, OverflowError) as exc:
        return result(False, error=str(exc), error_type="validation", started=started)
    return result(True, data={"expression": expression, "result": value, "text": str(value)}, started=started)
