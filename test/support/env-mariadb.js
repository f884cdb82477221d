process.env.SWITCHDESK_TEST_DB = "mariadb";
