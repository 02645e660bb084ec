wrk.method = "POST"
wrk.body = '{"user":{"name":"Ada","email":"ada@example.com"}}'
wrk.headers["Content-Type"] = "application/json"
