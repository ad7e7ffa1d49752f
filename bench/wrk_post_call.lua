-- wrk script: POST /api/v1/tools/call (calculator) with the bearer token from TOKEN.
wrk.method = "POST"
wrk.body = '{"tool": "calculator", "arguments": {"expression": "(17 + 3) * 2.5 - sqrt(16)"}}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
