process.env.SWITCHDESK_TEST_DB = "sqlite";
