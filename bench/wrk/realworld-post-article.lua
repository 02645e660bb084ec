-- POST /api/articles as one user (CONDUIT_TOKEN), each request a new article.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Token " .. os.getenv("CONDUIT_TOKEN")
wrk.body = '{"article":{"title":"Benchmarking Portico","description":"Numbers","body":"Requests per second and p99, on this machine.","tagList":["bench","portico"]}}'
