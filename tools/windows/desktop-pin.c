/* desktop-pin.exe: holds Wine's default desktop up for as long as the wineserver runs
 * (tools/windows/wine-start.sh starts it, its output to a file in the prefix).
 *
 * The first program that needs a desktop (any that makes a Vulkan instance) starts Wine's
 * explorer.exe, which inherits that program's stdout, and the wineserver closes the desktop one
 * second after its last user exits. So without a user that stays, each test that starts explorer
 * leaves ctest waiting on its output pipe for as long as explorer lives. A hidden window makes this
 * process that user. */
#include <windows.h>

int WINAPI WinMain(HINSTANCE instance, HINSTANCE previous, LPSTR command, int show) {
    (void)previous;
    (void)command;
    (void)show;
    HWND window = CreateWindowExW(0, L"STATIC", L"vkboids desktop pin", WS_POPUP, 0, 0, 1, 1, NULL,
                                  NULL, instance, NULL);
    if (!window) return 1;
    /* The desktop is up: tell wine-start.sh, whose output file this is. */
    DWORD written;
    WriteFile(GetStdHandle(STD_OUTPUT_HANDLE), "ready\n", 6, &written, NULL);
    MSG message;
    while (GetMessageW(&message, NULL, 0, 0) > 0) DispatchMessageW(&message);
    return 0;
}
