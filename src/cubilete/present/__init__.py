"""What the terminal front ends (line mode and Textual) show: boxes, sheets, narration, seat names."""
