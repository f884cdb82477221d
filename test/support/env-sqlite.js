process.env.SWITCHDESK_TEST_DB = "sqlite";
// the JSON request log stays quiet in tests unless LOG_LEVEL asks for it
process.env.LOG_LEVEL = process.env.LOG_LEVEL || "warn";
