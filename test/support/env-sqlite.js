process.env.SWITCHDESK_TEST_DB = "sqlite";
// the JSON request log stays quiet in tests unless LOG_LEVEL asks for it
process.env.LOG_LEVEL = process.env.LOG_LEVEL || "warn";
// failed logins add no wait in tests (the tests of the wait itself set it): LOGIN_DELAY_STEP_MS
process.env.LOGIN_DELAY_STEP_MS = process.env.LOGIN_DELAY_STEP_MS || "0";
