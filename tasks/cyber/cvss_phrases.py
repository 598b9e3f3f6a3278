"""Phrase banks that describe each CVSS v3.1 base-metric value in plain language.

Every value has at least five phrasings, each a full sentence, worded after the metric
definitions of the CVSS v3.1 specification (FIRST). A generated description contains one
phrase per metric, so the vector can be read back from the text; no phrase of one value
occurs inside a phrase of another value of the same metric (checked by the tests).
"""

from __future__ import annotations

import random

METRIC_VALUES: dict[str, tuple[str, ...]] = {
    "AV": ("N", "A", "L", "P"),
    "AC": ("L", "H"),
    "PR": ("N", "L", "H"),
    "UI": ("N", "R"),
    "S": ("U", "C"),
    "C": ("N", "L", "H"),
    "I": ("N", "L", "H"),
    "A": ("N", "L", "H"),
}

PHRASES: dict[str, dict[str, tuple[str, ...]]] = {
    "AV": {
        "N": (
            (
                "The vulnerable service is reachable over the internet, so the attack can be launched remotely across "
                "routed networks."
            ),
            (
                "An attacker can exploit the flaw remotely from anywhere on the internet by sending crafted network "
                "traffic."
            ),
            "Exploitation works over a routed wide-area network; the attacker does not need to be on the same subnet.",
            (
                "The issue is remotely exploitable through the network stack from any host that can route packets to "
                "the device."
            ),
            (
                "Crafted requests sent from a remote network location, several router hops away, are enough to reach "
                "the bug."
            ),
        ),
        "A": (
            "The attacker must be on the same local network segment (the same broadcast domain) as the target.",
            (
                "Exploitation is only possible from an adjacent network, such as the same Wi-Fi network or Bluetooth "
                "range, and cannot cross a router."
            ),
            "Only hosts on the same layer-2 segment can deliver the malicious frames; the traffic is not routable.",
            "An attacker needs to be within radio range of the device or share its local subnet to exploit the flaw.",
            "The attack is limited to the shared physical or logical adjacent network, for example the same VLAN.",
        ),
        "L": (
            (
                "The attacker needs local access to the system, such as an interactive shell or a logged-in console "
                "session."
            ),
            (
                "The vulnerable code is not exposed to the network; it can only be reached by a process already "
                "running on the machine."
            ),
            "Exploitation requires running code locally on the affected host, for instance through a terminal session.",
            (
                "The flaw is reachable only through local interfaces on the host, such as a local IPC socket or a "
                "command-line tool."
            ),
            "An attacker must first be able to execute commands on the target machine itself to trigger the bug.",
        ),
        "P": (
            "Exploitation requires physical access to the device, for example by attaching hardware to its debug port.",
            (
                "The attacker must physically touch or manipulate the hardware, such as plugging a device into its USB "
                "port."
            ),
            "Only someone holding the device in hand can trigger the flaw through its exposed hardware interface.",
            (
                "The bug can be triggered solely through physical interaction with the unit, like opening the case to "
                "reach the UART pins."
            ),
            (
                "An attacker needs hands-on physical access to the machine, such as booting it from removable media at "
                "the console."
            ),
        ),
    },
    "AC": {
        "L": (
            "No special conditions are needed: the attack succeeds reliably every time it is attempted.",
            (
                "Exploitation is straightforward and repeatable, with no preparation or target-specific knowledge "
                "required."
            ),
            "The attack works against the default configuration without any timing or environmental prerequisites.",
            "An attacker can expect repeatable success, since nothing outside their control affects the outcome.",
            "Triggering the flaw requires no reconnaissance, race, or specific setup on the target.",
        ),
        "H": (
            "Successful exploitation depends on winning a narrow race condition, so most attempts fail.",
            (
                "The attacker must first gather target-specific secrets, such as a per-installation key, before the "
                "attack can succeed."
            ),
            (
                "Exploitation only succeeds if the attacker can place themselves in the network path between the "
                "client and the server."
            ),
            (
                "The attack relies on conditions beyond the attacker's control, such as a non-default configuration "
                "being enabled."
            ),
            "Reliable exploitation requires defeating an exploit mitigation with considerable per-target preparation.",
        ),
    },
    "PR": {
        "N": (
            "No authentication is required to exploit the flaw; the attacker needs no account at all.",
            "An unauthenticated attacker can exploit it without any credentials.",
            "The attacker does not need to log in or hold any privileges on the target beforehand.",
            "Exploitation is possible anonymously, before any login takes place.",
            "No user account or prior access to settings or files is needed to carry out the attack.",
        ),
        "L": (
            "The attacker must be authenticated with an ordinary, low-privileged user account.",
            "Exploitation requires a basic user login, such as a standard employee or customer account.",
            "Any authenticated user with minimal permissions can exploit the flaw; no administrator rights are needed.",
            "The attacker needs valid credentials for a regular non-administrative account.",
            "Only basic user capabilities, the kind any registered user has, are required for the attack.",
        ),
        "H": (
            "The attacker must already hold administrative privileges on the affected component.",
            "Exploitation requires an account with full administrator rights.",
            "Only a user with high privileges, such as a system administrator, can reach the vulnerable functionality.",
            (
                "The attacker needs elevated, administrator-level access to the management interface before exploiting "
                "the flaw."
            ),
            (
                "Exploiting the bug requires significant control over the component, for example a root or superuser "
                "account."
            ),
        ),
    },
    "UI": {
        "N": (
            "No user interaction is required for the attack to succeed.",
            "The flaw can be exploited without any action by a victim user.",
            "Exploitation is fully automatic and does not depend on anyone clicking, opening, or approving anything.",
            "The attacker can trigger the issue on their own, with no participation from any other user.",
            "Nothing needs to be done by a legitimate user of the system for the exploit to work.",
        ),
        "R": (
            "A victim must click a malicious link crafted by the attacker for the attack to work.",
            "Exploitation requires a user to open a specially crafted file supplied by the attacker.",
            (
                "The attack succeeds only after a legitimate user takes some action, such as visiting a booby-trapped "
                "page."
            ),
            (
                "An administrator has to be tricked into importing the malicious configuration before the flaw is "
                "triggered."
            ),
            (
                "User interaction is required: someone other than the attacker must perform an action, like approving "
                "a prompt."
            ),
        ),
    },
    "S": {
        "U": (
            "The impact stays confined to the vulnerable component itself; no other component is affected.",
            "Only resources managed by the same security authority as the vulnerable component are impacted.",
            "The exploited flaw does not let the attacker reach beyond the security scope of the affected service.",
            "Any damage is limited to the vulnerable application and the data it governs.",
            "The compromise does not cross a security boundary; it remains within the vulnerable component.",
        ),
        "C": (
            "Exploitation lets the attacker break out of the sandbox and affect the underlying host.",
            (
                "The impact extends beyond the vulnerable component to resources governed by a different security "
                "authority."
            ),
            (
                "A successful attack crosses a security boundary, for example escaping the virtual machine to reach "
                "the hypervisor."
            ),
            (
                "The flaw in one component lets the attacker impact other components outside its security scope, such "
                "as users' browsers."
            ),
            (
                "The scope changes: the vulnerable component is used as a stepping stone to compromise a separately "
                "secured system."
            ),
        ),
    },
    "C": {
        "N": (
            "There is no loss of confidentiality; no information is disclosed.",
            "The attacker cannot read any data as a result of the flaw.",
            "Confidentiality is not affected at all.",
            "No sensitive or restricted information becomes accessible to the attacker.",
            "The bug discloses nothing: data secrecy is fully preserved.",
        ),
        "L": (
            "Some restricted information is disclosed, but the attacker has no control over what is obtained.",
            "There is a limited loss of confidentiality: only a small amount of non-critical data can be read.",
            (
                "The attacker gains access to some restricted data, although the disclosure is partial and of limited "
                "value."
            ),
            "Confidentiality is partially affected, as limited internal details such as file paths leak.",
            "A modest information leak occurs, exposing some data but not the most sensitive information.",
        ),
        "H": (
            "There is a total loss of confidentiality: the attacker can read all data on the affected component.",
            "The attacker can obtain highly sensitive information such as administrator passwords or private keys.",
            "All restricted information handled by the component is disclosed to the attacker.",
            "Confidentiality is completely compromised, exposing the entire database contents.",
            "The flaw gives full read access to every file and secret managed by the component.",
        ),
    },
    "I": {
        "N": (
            "There is no loss of integrity; the attacker cannot modify any data.",
            "Integrity is not affected at all.",
            "No data or configuration can be changed by the attacker.",
            "The attacker gains no ability to tamper with stored information.",
            "Data remains trustworthy: the bug offers no way to alter it.",
        ),
        "L": (
            "Some data can be modified, but the attacker has no control over the consequences of the change.",
            "There is a limited loss of integrity: only a small amount of non-critical data can be altered.",
            "The attacker can tamper with some information, although the modification is limited in scope.",
            "Integrity is partially affected, as certain display fields can be changed by the attacker.",
            "A modest integrity impact exists, allowing changes to some data without serious consequence.",
        ),
        "H": (
            "There is a total loss of integrity: the attacker can modify any file or data on the component.",
            "The attacker can alter all data protected by the component, including security-critical settings.",
            "Arbitrary data can be overwritten, so the integrity of the whole system is lost.",
            (
                "Integrity is completely compromised, letting the attacker plant malicious code that runs with the "
                "component's rights."
            ),
            "The flaw allows full write access to every record and configuration managed by the component.",
        ),
    },
    "A": {
        "N": (
            "There is no impact on availability; the service keeps running normally.",
            "Availability is not affected at all.",
            "The attacker cannot disrupt or slow down the service.",
            "Exploitation causes no outage or performance degradation.",
            "Service uptime is unaffected by the flaw.",
        ),
        "L": (
            "Performance is reduced or interrupted intermittently, but the service is not fully denied.",
            "There is a limited loss of availability: some requests fail, yet the service mostly keeps working.",
            "The attacker can degrade responsiveness, although legitimate users can still be served.",
            "Availability is partially affected, as only a secondary feature stops responding.",
            "A modest availability impact exists, causing occasional slowdowns rather than a full outage.",
        ),
        "H": (
            "There is a total loss of availability: the attacker can crash the service completely.",
            "The attacker can fully deny access to the component, for example by forcing it into a crash loop.",
            "The service becomes entirely unavailable to legitimate users for as long as the attack continues.",
            "Availability is completely compromised, as the device stops responding until it is rebooted.",
            "Exploitation causes a sustained outage in which no legitimate request can be processed.",
        ),
    },
}

METRIC_NAMES: dict[str, str] = {
    "AV": "Attack Vector",
    "AC": "Attack Complexity",
    "PR": "Privileges Required",
    "UI": "User Interaction",
    "S": "Scope",
    "C": "Confidentiality",
    "I": "Integrity",
    "A": "Availability",
}


def random_metrics(rng: random.Random) -> dict[str, str]:
    """One uniformly random value for each base metric, in specification order."""
    return {metric: rng.choice(values) for metric, values in METRIC_VALUES.items()}


def vector_of(metrics: dict[str, str]) -> str:
    """``CVSS:3.1/AV:.../A:...`` from a metric-to-value mapping."""
    return "CVSS:3.1/" + "/".join(f"{m}:{metrics[m]}" for m in METRIC_VALUES)


def random_vector(rng: random.Random) -> str:
    """A uniformly random valid CVSS 3.1 base vector."""
    return vector_of(random_metrics(rng))
