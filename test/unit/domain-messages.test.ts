// The texts scripts match on, checked word for word against docs/api-decisions.md section 2-6.
import * as msg from "../../domain/messages";

describe("contract texts", () => {
  it.each([
    [msg.NOT_AUTHENTICATED, "Authentication credentials were not provided."],
    [msg.INVALID_TOKEN, "Invalid token"],
    [msg.TOKEN_EXPIRED, "Token expired"],
    [msg.USER_INACTIVE, "User inactive"],
    [msg.LOGIN_FAILED, "Unable to log in with provided credentials."],
    [msg.missingParameter("username"), "Missing or invalid required parameter: 'username'"],
    [msg.TOO_MANY_TOKENS, "Too many tokens exist!"],
    [msg.ACCESS_DENIED, "Access denied!"],
    [msg.TOKEN_CANNOT_WRITE, "This token cannot write!"],
    [msg.CANNOT_MANAGE_INTERFACE, "You can not manage this interface!"],
    [msg.CANNOT_EDIT_DESCRIPTION, "You are not allowed to change the interface description!"],
    [msg.SUPERUSER_TO_DELETE_VLAN, "Access Denied: you need to be SuperUser to delete a VLAN"],
    [msg.NO_ADMIN_PERMISSION, "You do not have permission to perform this action."],
    [msg.deviceNotFound("sw-1"), "Device 'sw-1' not found!"],
    [msg.stateChanged("Gi1/0/3", true), "Interface Gi1/0/3 is now Enabled"],
    [msg.stateChanged("Gi1/0/3", false), "Interface Gi1/0/3 is now Disabled"],
    [msg.poeChanged("Gi1/0/3", true), "Interface Gi1/0/3 PoE is now Enabled"],
    [msg.vlanChanged("Gi1/0/3", 500), "Interface Gi1/0/3 changed to vlan 500"],
    [msg.descriptionChanged("Gi1/0/3"), "Interface Gi1/0/3 description was changed!"],
    [msg.sameState("Enabled"), "New interface status is the same (Enabled), please change status!"],
    [msg.samePoeState("Disabled"), "New PoE status is the same (Disabled), please change status!"],
    [msg.sameVlan(500), "New vlan 500 is the same, please change the vlan first!"],
    [msg.SAME_DESCRIPTION, "New description is the same, please change it first!"],
    [msg.missingNumericParameter("vlan"), "Missing or invalid required numeric parameter: 'vlan'"],
    [msg.vlanNotAllowed(500), "New vlan 500 is not valid or allowed on this device"],
    [msg.noPoe("Gi1/0/3"), "Interface Gi1/0/3 does not support PoE"],
    [msg.interfaceNotFound("1_1_1"), "Interface 1_1_1 not found"],
    [msg.descriptionTooLong(64), "Description is too long (max 64 characters)"],
    [msg.SAVE_MISSING, "Missing or invalid required parameter and value: 'save=yes'"],
    [msg.NO_SAVE_REQUESTED, "No save requested (why did you call us?)."],
    [msg.CANNOT_SAVE, "This switch model cannot save or does not need to save the config"],
    [msg.CONFIG_SAVED, "Configuration saved!"],
    [msg.VLAN_PARAMETERS_INVALID, "One or more missing or invalid required parameters: 'vlan_name', 'vlan_id'"],
    [msg.invalidNewVlanId(0), "Invalid new vlan id: '0'"],
    [msg.VLAN_NAME_MISSING, "Please provide a vlan name!"],
    [msg.VLAN_NAME_EMPTY, "Vlan name can not be empty!"],
    [msg.vlanExists(777), "Vlan 777 already exists!"],
    [msg.vlanMissing(777), "Vlan 777 does not exist!"],
    [msg.vlanCreated(777, "seven-times-3"), "Vlan 777 (seven-times-3) created."],
    [msg.vlanRenamed(777, "seven-seven-seven"), "Updated name for vlan 777 to 'seven-seven-seven'"],
    [msg.vlanDeleted(777), "Vlan 777 was deleted!"],
    [msg.USERNAME_TAKEN, "A user with that username already exists."],
    [msg.INVALID_PROFILE, "Invalid profile: must be a JSON dictionary"],
    [msg.INVALID_USER_ID, "Invalid user id!"],
  ])("%s", (actual, expected) => {
    expect(actual).toBe(expected);
  });

  it("device failures name the device and what went wrong", () => {
    expect(msg.deviceUnreachable("sw-1", "no answer from 10.0.0.1:161 after 2 tries")).toBe(
      "Device 'sw-1' could not be reached: no answer from 10.0.0.1:161 after 2 tries",
    );
    expect(msg.deviceRefused("sw-1", "notWritable on ifAlias.3")).toBe(
      "Device 'sw-1' refused the change: notWritable on ifAlias.3",
    );
  });
});
