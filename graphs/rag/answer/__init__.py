"""The answer layer: question analysis, evidence, verdicts, answerability, the extractive writer, the answer
check and citations (pure logic; the nodes write_answer and check_answer call it)."""
