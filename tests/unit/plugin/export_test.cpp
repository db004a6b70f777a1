// The room for a plugin's message (plugin/export.hpp, write_message): a message longer than the
// host's buffer keeps its end, the reason, and is never cut inside a UTF-8 character.
#include <parbench/plugin/export.hpp>
#include <parbench/plugin/loader.hpp>  // message_capacity, the host's buffer

#include <catch2/catch.hpp>

#include <string>

TEST_CASE("a plugin's message longer than the host's buffer keeps its end (the reason)") {
    const std::string message = "-msglen '" + std::string(5000, 'p') + "': no such file";
    std::string buffer(parbench::plugin::message_capacity, '\0');
    parbench::plugin::write_message(buffer.data(), buffer.size(), message);
    CHECK(std::string(buffer.c_str()) == message);  // a 5 KB message whole (it was cut at 2 KB)

    char small[64];
    parbench::plugin::write_message(small, sizeof small, message);
    const std::string shown = small;
    CHECK(shown.size() == sizeof small - 1);
    CHECK(shown.starts_with("-msglen 'ppp"));
    CHECK(shown.find(" [...] ") != std::string::npos);
    CHECK(shown.ends_with("p': no such file"));

    char utf8[40];  // never cut inside a character: é is two bytes
    std::string accents;
    for (int i = 0; i < 40; ++i) accents += "\xc3\xa9";
    parbench::plugin::write_message(utf8, sizeof utf8, accents + " reason");
    const std::string kept = utf8;
    CHECK(kept.ends_with(" reason"));
    for (std::size_t i = 0; i < kept.size(); ++i)
        if (static_cast<unsigned char>(kept[i]) == 0xc3) CHECK(kept[i + 1] == '\xa9');
    CHECK(kept.find("\xa9\xa9") == std::string::npos);
}
