// Every test process: password hashes at argon2id's smallest costs (app/passwords.ts; a
// unit test holds production to the library's defaults). Service processes the tests
// start inherit it.
process.env.SWITCHDESK_TEST_FAST_HASH = "1";
