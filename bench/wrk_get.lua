-- wrk script: GET with the bearer token from TOKEN.
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
